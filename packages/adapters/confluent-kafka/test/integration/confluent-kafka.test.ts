/**
 * The plain confluent-kafka app against the dev broker: the gate's fixtures in (256 generated
 * records, then every spelling case as its raw text), each scored out with the reference risk,
 * the clients' effective settings from librdkafka's own dump, the group's committed offset at the
 * end, a clean stop with nothing left running; then poison pills skipped, counted and committed.
 */
import { join } from "node:path";
import { cacheRoot, effectiveSettingsMismatches, KAFKA_SETTINGS } from "@bench/core";
import {
  describePoisonPills,
  expectScoredAndConsumed,
  prepareOrThrow,
  requireBootstrap,
  scoreFixturesThroughProduct,
  topicsOfGroup,
  type LiveFixtureRun,
} from "@bench/core/testing";
import { CONFLUENT_KAFKA_VERSION } from "../../src/pins.ts";
import { confluentKafka } from "../../src/product.ts";

const bootstrap = requireBootstrap();
const cacheDir = join(cacheRoot(), "confluent-kafka");
const log = (line: string): void => console.log(line);

describe("confluent-kafka adapter", () => {
  let run: LiveFixtureRun | undefined;

  afterAll(async () => {
    await run?.stop();
  });

  it("prepares its pinned environment", async () => {
    const prep = await prepareOrThrow(confluentKafka, { cacheDir, log });
    expect(prep.versions["confluent-kafka"]).toBe(CONFLUENT_KAFKA_VERSION);
    expect(prep.versions.librdkafka).toMatch(/^\d+\.\d+\.\d+/);
    expect(prep.versions.python).toMatch(/^3\.11\./);
    expect(prep.versions.torch).toMatch(/^\d+\.\d+/);
    expect(prep.deviations).toEqual([]);
  }, 900_000);

  it("scores every fixture record with the reference risk and commits, then stops cleanly", async () => {
    run = await scoreFixturesThroughProduct(confluentKafka, { bootstrap, cacheDir, topicPrefix: "confluent-kafka-it", log, keepRunning: true });
    expectScoredAndConsumed(run, "group-offsets");
    // A plain client creates no topics of its own: no broker hop besides input and output.
    expect(await topicsOfGroup(bootstrap, run.topics)).toEqual([]);
    // librdkafka's debug=conf dump: both clients run with the shared settings.
    expect(effectiveSettingsMismatches(run.running.logTail(1000), KAFKA_SETTINGS)).toEqual([]);

    // SIGTERM ends the loop after the batch in hand is delivered and committed: exit code 0.
    expect(await run.stop()).toEqual({ exit: { code: 0, signal: null }, aliveAfterStop: [] });
  }, 400_000);
});

describePoisonPills(confluentKafka, { cacheDir, log, stopExit: { code: 0, signal: null } });
