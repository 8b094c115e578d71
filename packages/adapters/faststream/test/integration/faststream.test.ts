/**
 * The faststream row end to end against a real broker: the 256 fixture records in, 256 scored
 * records out with the reference risk, the group's offset committed, nothing left running.
 */
import { join } from "node:path";
import { cacheRoot, FIXTURE_COUNT, loadModelCard, modelsDir } from "@bench/core";
import { scoreFixturesThroughProduct } from "@bench/core/testing";
import { faststream } from "../../src/product.ts";

const bootstrap = process.env.BENCH_BOOTSTRAP;
if (!bootstrap) throw new Error("BENCH_BOOTSTRAP is not set: point it at a Kafka broker, e.g. BENCH_BOOTSTRAP=127.0.0.1:19092");

describe("faststream adapter", () => {
  it("scores every fixture record with the reference risk, at least once", async () => {
    const run = await scoreFixturesThroughProduct(faststream, { bootstrap, cacheDir: join(cacheRoot(), "faststream"), topicPrefix: "faststream-it" });
    expect(Object.keys(run.preparation.versions)).toEqual(expect.arrayContaining(["faststream", "python", "torch"]));

    expect(run).toMatchObject({ fixtureCount: FIXTURE_COUNT, missing: [], tsMismatches: [], consumed: FIXTURE_COUNT, aliveAfterStop: [] });
    expect(run.outputs.size).toBe(FIXTURE_COUNT);
    expect(run.maxRiskError).toBeLessThanOrEqual(loadModelCard(modelsDir()).tolerance);
  }, 900_000);
});
