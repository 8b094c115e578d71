/**
 * The PyFlink job against the dev broker at parallelism 2 (so the exchange and two Python
 * workers are exercised): the gate's fixtures in (256 generated records, then every spelling
 * case as its raw text), each scored out with the reference risk, the group's committed offset
 * (checkpoint commits) at the end, and a clean stop that leaves no driver, JVM or Python worker
 * behind.
 */
import { join } from "node:path";
import { cacheRoot, javaProducerMismatches, KAFKA_SETTINGS, processTree, REFUSAL_CASES } from "@bench/core";
import {
  alive,
  describePoisonPills,
  expectScoredAndConsumed,
  prepareOrThrow,
  requireBootstrap,
  runLogs,
  scoreFixturesThroughProduct,
  topicsOfGroup,
  type LiveFixtureRun,
} from "@bench/core/testing";
import { flink } from "../../src/product.ts";

const bootstrap = requireBootstrap();
const cacheDir = join(cacheRoot(), "flink");
const log = (line: string): void => console.log(line);

describe("flink adapter", () => {
  let run: LiveFixtureRun | undefined;

  afterAll(async () => {
    await run?.stop();
  });

  it("prepares its pinned environment", async () => {
    const prep = await prepareOrThrow(flink, { cacheDir, log });
    expect(prep.versions.flink).toBe("2.2.1");
    expect(prep.versions["flink-sql-connector-kafka"]).toBe("5.0.0-2.2");
    expect(prep.versions.java).toMatch(/^17\./);
    expect(prep.versions.python).toMatch(/^3\.11\./);
    expect(prep.versions.torch).toMatch(/^\d+\.\d+/);
  }, 900_000);

  it("scores every fixture record with the reference risk and commits, then stops cleanly", async () => {
    run = await scoreFixturesThroughProduct(flink, { bootstrap, parallelism: 2, cacheDir, topicPrefix: "flink-it", log, keepRunning: true });
    expectScoredAndConsumed(run, "group-offsets");
    // A broker hop would be a topic of its own; the runner counts records on any such topic.
    expect(await topicsOfGroup(bootstrap, run.topics)).toEqual([]);
    // The sink's Java producer as the client logged it (the JVM's log is in the run's folder):
    // the shared producer settings. The consumer keeps the connector's defaults (a deviation).
    expect(javaProducerMismatches(runLogs(run.runDir), KAFKA_SETTINGS.producer)).toEqual([]);

    // Every process below the roots, found while running so the stop can be checked against all of them.
    const roots = run.rootPids;
    const descendants = processTree(roots)
      .map((p) => p.pid)
      .filter((pid) => !roots.includes(pid));
    // Driver, JVM and one Python worker per slot (at least).
    expect(descendants.length).toBeGreaterThanOrEqual(3);
    // The driver catches SIGTERM, the JVM closes its MiniCluster: exit code 0.
    expect(await run.stop()).toEqual({ exit: { code: 0, signal: null }, aliveAfterStop: [] });
    expect(descendants.filter(alive)).toEqual([]);
  }, 400_000);
});

// Flink's JSON format skips what it cannot parse and counts nothing: the skipped records are
// the consumed ones that did not come out.
describePoisonPills(flink, { cacheDir, log, silentSkips: true, stopExit: { code: 0, signal: null } });

// The row's declared reading of a must-refuse case holds (Product.poisonFindings): the record
// inside a top-level array comes out scored, which the gate then calls an unknown event id.
describe("flink's declared reading of a top-level array", () => {
  it("scores the record inside it, as declared beside the row", async () => {
    expect(Object.keys(flink.poisonFindings ?? {})).toEqual(["top_level_array_of_record"]);
    const arrayCase = REFUSAL_CASES.find((c) => c.name === "top_level_array_of_record")!;
    const eventId = (JSON.parse(arrayCase.value.toString("utf8")) as Array<{ event_id: string }>)[0]!.event_id;
    const run = await scoreFixturesThroughProduct(flink, {
      cacheDir, log, bootstrap, topicPrefix: "flink-array-it", readTimeoutMs: 240_000,
      poison: [{ kind: "refusal", refusal: arrayCase.name, beforeSeq: 1, value: arrayCase.value }],
    });
    expect(run.gate.passed).toBe(false);
    expect(run.gate.problem).toContain(`unknown event_id ${JSON.stringify(eventId)}`);
  }, 900_000);
});
