/**
 * The pathway row end to end against a real broker: the gate's fixtures in (256 generated
 * records, then every spelling case as its raw text), each scored out with the reference risk as
 * exactly {event_id, ts_ms, risk}, the app's consumed counter at the record count, its Kafka
 * clients on the shared settings, no socket off this machine, nothing left running.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { cacheRoot, effectiveSettingsMismatches, FIXTURE_COUNT, GENERATED_FIXTURE_COUNT, KAFKA_SETTINGS, loadModelCard, modelsDir, POISON_KINDS, poisonSchedule, repoRoot } from "@bench/core";
import { scoreFixturesThroughProduct, type LiveFixtureRun } from "@bench/core/testing";
import { persistenceDir } from "../../src/app-env.ts";
import { pathway } from "../../src/product.ts";
import { isLocal, tcpPeers } from "../../src/sockets.ts";

const bootstrap = process.env.BENCH_BOOTSTRAP;
if (!bootstrap) throw new Error("BENCH_BOOTSTRAP is not set: point it at a Kafka broker, e.g. BENCH_BOOTSTRAP=127.0.0.1:19092");

const cacheDir = join(cacheRoot(), "pathway");
const log = (line: string): void => console.log(line);
/** The app's whole log (logTail keeps only the last lines, and Pathway logs every few seconds). */
const appLog = (run: LiveFixtureRun): string => readFileSync(join(run.runDir, "pathway.log"), "utf8");

describe("pathway adapter", () => {
  let run: LiveFixtureRun | undefined;
  afterAll(async () => {
    await run?.stop();
  });

  it("prepares its pinned environment", async () => {
    const prep = await pathway.prepare({ repoRoot: repoRoot(), modelsDir: modelsDir(), cacheDir, log });
    if (!prep.ok) throw new Error(prep.reason);
    expect(prep.versions).toMatchObject({ pathway: "0.33.0", orjson: "3.13.0" });
    expect(prep.versions.python).toMatch(/^3\.11\./);
    expect(prep.versions.torch).toMatch(/^\d+\.\d+/);
  }, 900_000);

  it("scores every fixture record with the reference risk, counts them consumed, then stops cleanly", async () => {
    run = await scoreFixturesThroughProduct(pathway, { bootstrap, cacheDir, topicPrefix: "pathway-it", log, keepRunning: true });
    expect(run.aliveAtStart).toEqual(run.rootPids);
    expect(run.running.consumed.kind).toBe("engine-counter");
    expect(run).toMatchObject({ fixtureCount: FIXTURE_COUNT, problems: [], missing: [], tsMismatches: [], strayOutputs: 0, consumed: FIXTURE_COUNT });
    expect(run.outputs.size).toBe(FIXTURE_COUNT);
    expect(run.maxRiskError).toBeLessThanOrEqual(loadModelCard(modelsDir()).tolerance);
    // Pathway's json writer would add "time" and "diff": the raw writer publishes the record as encoded.
    for (const out of run.outputs.values()) expect(Object.keys(out).sort()).toEqual(["event_id", "risk", "ts_ms"]);

    // Both of Pathway's librdkafka clients run with the shared settings (debug=conf dump).
    expect(effectiveSettingsMismatches(appLog(run), KAFKA_SETTINGS)).toEqual([]);
    // No licence call, no telemetry: every TCP peer of the app is on this machine (the broker).
    const peers = run.rootPids.flatMap((pid) => tcpPeers(pid));
    expect(peers.length).toBeGreaterThan(0);
    expect(peers.filter((p) => !isLocal(p))).toEqual([]);
    expect(appLog(run)).not.toMatch(/licen[cs]e|telemetry/i);

    const state = persistenceDir(run);
    expect(existsSync(state)).toBe(true);
    const stopped = await run.stop();
    expect(stopped.aliveAfterStop).toEqual([]);
    // Pathway ends its computation on SIGTERM; the run's persisted state goes with the run.
    expect(stopped.exit.signal).toBeNull();
    expect(existsSync(state)).toBe(false);
  }, 600_000);
});

describe("pathway with poison pills", () => {
  let run: LiveFixtureRun | undefined;
  afterAll(async () => {
    await run?.stop();
  });

  // Two engine workers (the bench's default on 2 cores): the UDF runs on both.
  it("skips every pill, scores every good record around them, keeps running and stops cleanly", async () => {
    const pills = poisonSchedule({ seed: 7, rounds: 2, firstSeq: 1, span: GENERATED_FIXTURE_COUNT - 1 });
    run = await scoreFixturesThroughProduct(pathway, { bootstrap: bootstrap as string, cacheDir, topicPrefix: "pathway-poison-it", log, poison: pills, parallelism: 2, keepRunning: true });
    expect(run).toMatchObject({ problems: [], missing: [], tsMismatches: [], strayOutputs: 0, inputCount: FIXTURE_COUNT + 2 * POISON_KINDS.length });
    expect(run.outputs.size).toBe(FIXTURE_COUNT);
    expect(run.maxRiskError).toBeLessThan(1e-5);
    // The pills were gone through too: skipped, not stuck.
    expect(run.consumed).toBe(run.inputCount);
    expect(appLog(run)).toMatch(/BENCH_READY threads=2/);
    expect(appLog(run).match(/skipped record at offset \d+: /g)).toHaveLength(pills.length);
    expect((await run.stop()).aliveAfterStop).toEqual([]);
  }, 900_000);
});
