/**
 * The pathway row end to end against a real broker: the gate's fixtures in (256 generated
 * records, then every spelling case as its raw text), each scored out with the reference risk as
 * exactly {event_id, ts_ms, risk}, the app's consumed counter at the record count, its Kafka
 * clients on the shared settings, no socket off this machine, nothing left running.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { cacheRoot, effectiveSettingsMismatches, KAFKA_SETTINGS } from "@bench/core";
import {
  describePoisonPills,
  expectScoredAndConsumed,
  prepareOrThrow,
  requireBootstrap,
  scoreFixturesThroughProduct,
  type LiveFixtureRun,
} from "@bench/core/testing";
import { persistenceDir } from "../../src/app-env.ts";
import { pathway } from "../../src/product.ts";
import { isLocal, tcpPeers } from "../../src/sockets.ts";

const bootstrap = requireBootstrap();
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
    const prep = await prepareOrThrow(pathway, { cacheDir, log });
    expect(prep.versions).toMatchObject({ pathway: "0.33.0", orjson: "3.13.0" });
    expect(prep.versions.python).toMatch(/^3\.11\./);
    expect(prep.versions.torch).toMatch(/^\d+\.\d+/);
  }, 900_000);

  it("scores every fixture record with the reference risk, counts them consumed, then stops cleanly", async () => {
    run = await scoreFixturesThroughProduct(pathway, { bootstrap, cacheDir, topicPrefix: "pathway-it", log, keepRunning: true });
    expectScoredAndConsumed(run, "engine-counter");
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

// Two engine workers (the bench's default on 2 cores): the UDF runs on both.
describePoisonPills(pathway, { cacheDir, log, parallelism: 2, alsoCheck: (run) => expect(appLog(run)).toMatch(/BENCH_READY threads=2/) });
