/**
 * The spark row end to end on local[N] against a real broker: the gate's fixtures in (256
 * generated records, then every spelling case as its raw text), each scored out with the
 * reference risk, the progress counter at the input's end, the connector's producer at the
 * shared settings, nothing left running; then with poison pills, each skipped with its log line.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { cacheRoot, FIXTURE_COUNT, javaProducerMismatches, KAFKA_SETTINGS } from "@bench/core";
import { describePoisonPills, expectGatePassed, mustRefuse, requireBootstrap, scoreFixturesThroughProduct } from "@bench/core/testing";
import { readProgress } from "../../src/progress-file.ts";
import { spark } from "../../src/product.ts";
import { queryState } from "../../src/query-state.ts";

const bootstrap = requireBootstrap();
const cacheDir = join(cacheRoot(), "spark");
/** Spark's start and its first micro-batches take their time on a busy machine. */
const timeouts = { readTimeoutMs: 300_000, consumedTimeoutMs: 60_000 };
delete process.env.BENCH_SPARK_MASTER; // this file tests local[N]; cluster.test.ts the cluster

describe("spark adapter on local[N]", () => {
  it("scores every fixture record with the reference risk, at least once, and stops cleanly", async () => {
    const live = await scoreFixturesThroughProduct(spark, { bootstrap, parallelism: 2, cacheDir, topicPrefix: "spark-it", keepRunning: true, ...timeouts });
    const log = readFileSync(join(live.runDir, "spark.log"), "utf8");
    const handed = /BENCH_KAFKA_SETTINGS (.*)/.exec(log)?.[1];
    const run = { ...live, ...(await live.stop()) };
    const c = KAFKA_SETTINGS.consumer;
    expect(JSON.parse(handed ?? "null")).toMatchObject(
      {
        consumer: {
          "kafka.fetch.min.bytes": c["fetch.min.bytes"],
          "kafka.fetch.max.wait.ms": c["fetch.wait.max.ms"],
          "kafka.max.partition.fetch.bytes": c["max.partition.fetch.bytes"],
        },
      },
    );
    // The connector's Java producers log their configuration (log4j2.properties keeps it at INFO).
    expect(javaProducerMismatches(log, KAFKA_SETTINGS.producer)).toEqual([]);
    expect(Object.keys(run.preparation.versions)).toEqual(expect.arrayContaining(["spark", "pyspark", "spark-sql-kafka", "python", "torch", "java"]));

    expectGatePassed(run);
    expect(run).toMatchObject({ consumed: FIXTURE_COUNT, aliveAfterStop: [] });
    expect(run.exit.code === 0 || run.exit.signal === "SIGTERM" || run.exit.code === 143).toBe(true);
  }, 900_000);
});

describePoisonPills(spark, {
  cacheDir,
  parallelism: 2,
  ...timeouts,
  // observe() counted every refused record (the pills and the gate's must-refuse cases), summed over the micro-batches by its listener.
  alsoCheck: (run) => expect(readProgress(queryState(run).progressFile)).toMatchObject({ consumed: run.inputCount, skipped: mustRefuse(spark).length }),
});
