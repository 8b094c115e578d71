/**
 * The faststream row end to end against a real broker: the 256 fixture records in, 256 scored
 * records out with the reference risk, the group's offset committed, nothing left running.
 */
import { join } from "node:path";
import { cacheRoot, FIXTURE_COUNT, KAFKA_SETTINGS, loadModelCard, modelsDir } from "@bench/core";
import { scoreFixturesThroughProduct } from "@bench/core/testing";
import { faststream } from "../../src/product.ts";

const bootstrap = process.env.BENCH_BOOTSTRAP;
if (!bootstrap) throw new Error("BENCH_BOOTSTRAP is not set: point it at a Kafka broker, e.g. BENCH_BOOTSTRAP=127.0.0.1:19092");

describe("faststream adapter", () => {
  it("scores every fixture record with the reference risk, at least once", async () => {
    const live = await scoreFixturesThroughProduct(faststream, { bootstrap, cacheDir: join(cacheRoot(), "faststream"), topicPrefix: "faststream-it", keepRunning: true });
    const handed = /BENCH_KAFKA_SETTINGS (.*)/.exec(live.running.logTail(200))?.[1];
    const run = { ...live, ...(await live.stop()) };
    // aiokafka has no configuration dump: the app prints what it handed aiokafka, under aiokafka's names.
    const c = KAFKA_SETTINGS.consumer;
    const p = KAFKA_SETTINGS.producer;
    expect(JSON.parse(handed ?? "null")).toEqual({
      consumer: { fetch_min_bytes: c["fetch.min.bytes"], fetch_max_wait_ms: c["fetch.wait.max.ms"], max_partition_fetch_bytes: c["max.partition.fetch.bytes"] },
      producer: { acks: p.acks, enable_idempotence: p["enable.idempotence"], compression_type: p["compression.type"], linger_ms: p["linger.ms"] },
    });
    expect(Object.keys(run.preparation.versions)).toEqual(expect.arrayContaining(["faststream", "python", "torch"]));

    expect(run).toMatchObject({ fixtureCount: FIXTURE_COUNT, missing: [], tsMismatches: [], consumed: FIXTURE_COUNT, aliveAfterStop: [] });
    expect(run.outputs.size).toBe(FIXTURE_COUNT);
    expect(run.maxRiskError).toBeLessThanOrEqual(loadModelCard(modelsDir()).tolerance);
  }, 900_000);
});
