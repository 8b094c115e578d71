/**
 * The faststream row end to end against a real broker: the gate's fixtures in (256 generated
 * records, then every spelling case as its raw text), each scored out with the reference risk,
 * the group's offset committed, nothing left running.
 */
import { join } from "node:path";
import { cacheRoot, FIXTURE_COUNT, KAFKA_SETTINGS } from "@bench/core";
import { describePoisonPills, expectGatePassed, requireBootstrap, scoreFixturesThroughProduct } from "@bench/core/testing";
import { faststream } from "../../src/product.ts";

const bootstrap = requireBootstrap();
const cacheDir = join(cacheRoot(), "faststream");

describe("faststream adapter", () => {
  it("scores every fixture record with the reference risk, at least once", async () => {
    const live = await scoreFixturesThroughProduct(faststream, { bootstrap, cacheDir, topicPrefix: "faststream-it", keepRunning: true });
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

    expectGatePassed(run);
    expect(run).toMatchObject({ consumed: FIXTURE_COUNT, aliveAfterStop: [] });
  }, 900_000);
});

describePoisonPills(faststream, { cacheDir });
