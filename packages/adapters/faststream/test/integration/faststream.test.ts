/**
 * The faststream row end to end against a real broker: the gate's fixtures in (256 generated
 * records, then every spelling case as its raw text), each scored out with the reference risk,
 * the group's offset committed, nothing left running.
 */
import { join } from "node:path";
import { cacheRoot, FIXTURE_COUNT, GENERATED_FIXTURE_COUNT, KAFKA_SETTINGS, loadModelCard, modelsDir, POISON_KINDS, poisonSchedule } from "@bench/core";
import { scoreFixturesThroughProduct, type LiveFixtureRun } from "@bench/core/testing";
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

    expect(run).toMatchObject({ fixtureCount: FIXTURE_COUNT, problems: [], missing: [], tsMismatches: [], consumed: FIXTURE_COUNT, aliveAfterStop: [] });
    expect(run.outputs.size).toBe(FIXTURE_COUNT);
    expect(run.maxRiskError).toBeLessThanOrEqual(loadModelCard(modelsDir()).tolerance);
  }, 900_000);
});

describe("faststream with poison pills", () => {
  let run: LiveFixtureRun | undefined;
  afterAll(async () => {
    await run?.stop();
  });

  it("skips every pill, scores every good record around them, keeps running and stops cleanly", async () => {
    const pills = poisonSchedule({ seed: 7, rounds: 2, firstSeq: 1, span: GENERATED_FIXTURE_COUNT - 1 });
    run = await scoreFixturesThroughProduct(faststream, {
      bootstrap: bootstrap as string,
      cacheDir: join(cacheRoot(), "faststream"),
      topicPrefix: "faststream-poison-it",
      poison: pills,
      keepRunning: true,
    });
    expect(run).toMatchObject({ problems: [], missing: [], tsMismatches: [], strayOutputs: 0, inputCount: FIXTURE_COUNT + 2 * POISON_KINDS.length });
    expect(run.outputs.size).toBe(FIXTURE_COUNT);
    expect(run.maxRiskError).toBeLessThan(1e-5);
    // The pills' offsets are committed too: skipped, not stuck.
    expect(run.consumed).toBe(run.inputCount);
    expect(run.running.logTail(400).match(/skipped record at offset/g)).toHaveLength(pills.length);
    expect((await run.stop()).aliveAfterStop).toEqual([]);
  }, 900_000);
});
