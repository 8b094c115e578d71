/**
 * The spark row end to end on local[N] against a real broker: the gate's fixtures in (256
 * generated records, then every spelling case as its raw text), each scored out with the
 * reference risk, the progress counter at the input's end, the connector's producer at the
 * shared settings, nothing left running; then with poison pills, each skipped with its log line.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { cacheRoot, FIXTURE_COUNT, GENERATED_FIXTURE_COUNT, javaProducerMismatches, KAFKA_SETTINGS, loadModelCard, modelsDir, POISON_KINDS, poisonSchedule } from "@bench/core";
import { scoreFixturesThroughProduct, type LiveFixtureRun } from "@bench/core/testing";
import { readProgress } from "../../src/progress-file.ts";
import { spark } from "../../src/product.ts";
import { queryState } from "../../src/query-state.ts";

const bootstrap = process.env.BENCH_BOOTSTRAP;
if (!bootstrap) throw new Error("BENCH_BOOTSTRAP is not set: point it at a Kafka broker, e.g. BENCH_BOOTSTRAP=127.0.0.1:19092");
delete process.env.BENCH_SPARK_MASTER; // this file tests local[N]; cluster.test.ts the cluster

describe("spark adapter on local[N]", () => {
  it("scores every fixture record with the reference risk, at least once, and stops cleanly", async () => {
    const live = await scoreFixturesThroughProduct(spark, { bootstrap, parallelism: 2, cacheDir: join(cacheRoot(), "spark"), topicPrefix: "spark-it", keepRunning: true, readTimeoutMs: 300_000, consumedTimeoutMs: 60_000 });
    const log = readFileSync(join(live.runDir, "spark.log"), "utf8");
    const handed = /BENCH_KAFKA_SETTINGS (.*)/.exec(log)?.[1];
    const run = { ...live, ...(await live.stop()) };
    const c = KAFKA_SETTINGS.consumer;
    expect(JSON.parse(handed ?? "null")).toMatchObject({ consumer: { "kafka.fetch.min.bytes": c["fetch.min.bytes"], "kafka.fetch.max.wait.ms": c["fetch.wait.max.ms"], "kafka.max.partition.fetch.bytes": c["max.partition.fetch.bytes"] } });
    // The connector's Java producers log their configuration (log4j2.properties keeps it at INFO).
    expect(javaProducerMismatches(log, KAFKA_SETTINGS.producer)).toEqual([]);
    expect(Object.keys(run.preparation.versions)).toEqual(expect.arrayContaining(["spark", "pyspark", "spark-sql-kafka", "python", "torch", "java"]));

    expect(run).toMatchObject({ fixtureCount: FIXTURE_COUNT, problems: [], missing: [], tsMismatches: [], consumed: FIXTURE_COUNT, aliveAfterStop: [] });
    expect(run.outputs.size).toBe(FIXTURE_COUNT);
    expect(run.maxRiskError).toBeLessThanOrEqual(loadModelCard(modelsDir()).tolerance);
    expect(run.exit.code === 0 || run.exit.signal === "SIGTERM" || run.exit.code === 143).toBe(true);
  }, 900_000);
});

describe("spark with poison pills", () => {
  let run: LiveFixtureRun | undefined;
  afterAll(async () => {
    await run?.stop();
  });

  it("skips every pill with its log line, counts them, scores every good record around them and stops cleanly", async () => {
    const pills = poisonSchedule({ seed: 7, rounds: 2, firstSeq: 1, span: GENERATED_FIXTURE_COUNT - 1 });
    run = await scoreFixturesThroughProduct(spark, { bootstrap: bootstrap as string, parallelism: 2, cacheDir: join(cacheRoot(), "spark"), topicPrefix: "spark-poison-it", poison: pills, keepRunning: true, readTimeoutMs: 300_000, consumedTimeoutMs: 60_000 });
    expect(run).toMatchObject({ problems: [], missing: [], tsMismatches: [], strayOutputs: 0, inputCount: FIXTURE_COUNT + 2 * POISON_KINDS.length });
    expect(run.outputs.size).toBe(FIXTURE_COUNT);
    expect(run.maxRiskError).toBeLessThan(1e-5);
    // Skipped, not stuck: the engine counter reaches the end of the input, pills included.
    expect(run.consumed).toBe(run.inputCount);
    expect(readFileSync(join(run.runDir, "spark.log"), "utf8").match(/skipped record at offset \d+/g)).toHaveLength(pills.length);
    // observe() counted them too, summed over the micro-batches by the app's listener.
    expect(readProgress(queryState(run).progressFile)).toMatchObject({ consumed: run.inputCount, skipped: pills.length });
    expect((await run.stop()).aliveAfterStop).toEqual([]);
  }, 900_000);
});
