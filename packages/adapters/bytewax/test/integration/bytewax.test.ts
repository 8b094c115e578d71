/**
 * The bytewax app against the dev broker: the gate's fixtures in (256 generated records, then
 * every spelling case as its raw text), each scored out with the reference risk, the engine
 * counter at the record count, the shared client settings in librdkafka's own dump, a clean
 * stop; a second start on the same group resumes from Bytewax's snapshot; poison pills are
 * skipped and counted.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { cacheRoot, effectiveSettingsMismatches, FIXTURE_COUNT, KAFKA_SETTINGS, KafkaAdmin, modelsDir, repoRoot, type RunningProduct } from "@bench/core";
import {
  alive,
  describePoisonPills,
  expectScoredAndConsumed,
  prepareOrThrow,
  requireBootstrap,
  scoreFixturesThroughProduct,
  topicsOfGroup,
  type LiveFixtureRun,
} from "@bench/core/testing";
import { bytewax } from "../../src/product.ts";
import { RECOVERY_DIR, RECOVERY_PARTITION } from "../../src/state.ts";

const bootstrap = requireBootstrap();
const cacheDir = join(cacheRoot(), "bytewax");
const log = (line: string): void => console.log(line);

describe("bytewax adapter", () => {
  let run: LiveFixtureRun | undefined;
  let again: RunningProduct | undefined;

  afterAll(async () => {
    await again?.stop();
    await run?.stop();
  });

  it("prepares its pinned environment", async () => {
    const prep = await prepareOrThrow(bytewax, { cacheDir, log });
    expect(prep.versions.bytewax).toBe("0.21.1");
    expect(prep.versions.python).toMatch(/^3\.11\./);
    expect(prep.versions.torch).toMatch(/^\d+\.\d+/);
    expect(prep.versions.librdkafka).toMatch(/^\d+\.\d+\.\d+/);
  }, 900_000);

  it("scores every fixture record with the reference risk, counts them all consumed, then stops cleanly", async () => {
    run = await scoreFixturesThroughProduct(bytewax, { bootstrap, cacheDir, topicPrefix: "bytewax-it", log, keepRunning: true });
    expectScoredAndConsumed(run, "engine-counter");
    // Bytewax keeps its position in its recovery store, never in a consumer group or a topic of its own.
    expect(existsSync(join(run.stateDir, RECOVERY_DIR, RECOVERY_PARTITION))).toBe(true);
    expect(await topicsOfGroup(bootstrap, run.topics)).toEqual([]);
    expect(effectiveSettingsMismatches(run.running.logTail(2000), KAFKA_SETTINGS)).toEqual([]);

    // SIGTERM ends the input: Bytewax snapshots, the sink flushes, exit code 0.
    const roots = run.rootPids;
    await run.running.stop();
    expect(await run.running.exited).toEqual({ code: 0, signal: null });
    expect(roots.filter(alive)).toEqual([]);
  }, 400_000);

  it("starts again on the same group from the snapshot the stop took: nothing replayed", async () => {
    if (!run) throw new Error("the first run did not start");
    const prep = await prepareOrThrow(bytewax, { cacheDir, log });
    const { input, output, groupId } = run.topics;
    const runDir = join(run.runDir, "restart");
    again = await bytewax.start(
      {
        bootstrap,
        kafka: KAFKA_SETTINGS,
        inputTopic: input,
        outputTopic: output,
        groupId,
        parallelism: 1,
        guarantee: "at-least-once",
        runDir,
        stateDir: run.stateDir,
        repoRoot: repoRoot(),
        modelsDir: modelsDir(),
        cacheDir,
        log,
      },
      prep.found,
    );
    expect(/BENCH_READY .*/.exec(again.logTail(2000))?.[0]).toBe(`BENCH_READY partition 0-${input} from offset ${FIXTURE_COUNT}`);
    expect(again.consumed.kind === "engine-counter" && (await again.consumed.read())).toBe(FIXTURE_COUNT);
    const admin = await KafkaAdmin.connect(bootstrap);
    try {
      // Give a replay, were there one, time to land: the output holds each fixture once.
      await new Promise((r) => setTimeout(r, 3000));
      expect(await admin.endOffset(output)).toBe(FIXTURE_COUNT);
    } finally {
      await admin.close();
    }
    const roots = again.rootPids();
    await again.stop();
    expect(await again.exited).toEqual({ code: 0, signal: null });
    expect(roots.filter(alive)).toEqual([]);
  }, 400_000);
});

describePoisonPills(bytewax, { cacheDir, log, stopExit: { code: 0, signal: null } });
