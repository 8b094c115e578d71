/**
 * The quix app against the dev broker: the gate's fixtures in (256 generated records, then
 * every spelling case as its raw text), each scored out with the reference risk, the group's
 * committed offset at the end, a clean stop.
 */
import { join } from "node:path";
import { cacheRoot, effectiveSettingsMismatches, FIXTURE_COUNT, GENERATED_FIXTURE_COUNT, KAFKA_SETTINGS, loadModelCard, modelsDir, POISON_KINDS, poisonSchedule, repoRoot } from "@bench/core";
import { scoreFixturesThroughProduct, topicsOfGroup, type LiveFixtureRun } from "@bench/core/testing";
import { quix } from "../../src/product.ts";

const bootstrap = process.env.BENCH_BOOTSTRAP;
if (!bootstrap) throw new Error("BENCH_BOOTSTRAP is not set: point it at a Kafka broker, e.g. BENCH_BOOTSTRAP=127.0.0.1:19092");

const cacheDir = join(cacheRoot(), "quix");
const log = (line: string): void => console.log(line);

describe("quix adapter", () => {
  let run: LiveFixtureRun | undefined;

  afterAll(async () => {
    await run?.stop();
  });

  it("prepares its pinned environment", async () => {
    const prep = await quix.prepare({ repoRoot: repoRoot(), modelsDir: modelsDir(), cacheDir, log });
    if (!prep.ok) throw new Error(prep.reason);
    expect(prep.versions.quix).toBe("3.28.1");
    expect(prep.versions.python).toMatch(/^3\.11\./);
    expect(prep.versions.torch).toMatch(/^\d+\.\d+/);
  }, 900_000);

  it("scores every fixture record with the reference risk and commits, then stops cleanly", async () => {
    run = await scoreFixturesThroughProduct(quix, { bootstrap, cacheDir, topicPrefix: "quix-it", log, keepRunning: true });
    expect(run.aliveAtStart).toEqual(run.rootPids);
    expect(run.running.consumed.kind).toBe("group-offsets");
    expect(run).toMatchObject({ fixtureCount: FIXTURE_COUNT, problems: [], missing: [], tsMismatches: [], consumed: FIXTURE_COUNT });
    expect(run.outputs.size).toBe(FIXTURE_COUNT);
    expect(run.maxRiskError).toBeLessThanOrEqual(loadModelCard(modelsDir()).tolerance);
    // Quix's own topics (changelogs, repartitions, named after the group) would be broker hops: the app has none.
    expect(await topicsOfGroup(bootstrap, run.topics)).toEqual([]);
    expect(effectiveSettingsMismatches(run.running.logTail(500), KAFKA_SETTINGS)).toEqual([]);

    // quixstreams handles SIGTERM: last checkpoint committed, exit code 0.
    expect(await run.stop()).toEqual({ exit: { code: 0, signal: null }, aliveAfterStop: [] });
  }, 400_000);
});

describe("quix with poison pills", () => {
  let run: LiveFixtureRun | undefined;
  afterAll(async () => {
    await run?.stop();
  });

  it("skips every pill, scores every good record around them, keeps running and stops cleanly", async () => {
    const pills = poisonSchedule({ seed: 7, rounds: 2, firstSeq: 1, span: GENERATED_FIXTURE_COUNT - 1 });
    run = await scoreFixturesThroughProduct(quix, {
      bootstrap: bootstrap as string,
      cacheDir: join(cacheRoot(), "quix"),
      topicPrefix: "quix-poison-it",
      poison: pills,
      keepRunning: true,
    });
    expect(run).toMatchObject({ problems: [], missing: [], tsMismatches: [], strayOutputs: 0, inputCount: FIXTURE_COUNT + 2 * POISON_KINDS.length });
    expect(run.outputs.size).toBe(FIXTURE_COUNT);
    expect(run.maxRiskError).toBeLessThan(1e-5);
    // The pills' offsets are committed too: skipped, not stuck.
    expect(run.consumed).toBe(run.inputCount);
    expect(run.running.logTail(400).match(/skipped record at offset \d+: /g)).toHaveLength(pills.length);
    expect((await run.stop()).aliveAfterStop).toEqual([]);
  }, 900_000);
});
