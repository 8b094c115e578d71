/**
 * The node rows against the dev broker: the gate's fixtures in (256 generated records, then
 * every spelling case as its raw text), scored (or passed through) out, the group's committed
 * offset at the end, a clean stop, and the clients' effective librdkafka configuration (printed
 * by debug=conf) equal to the shared settings.
 */
import { join } from "node:path";
import { cacheRoot, effectiveSettingsMismatches, FIXTURE_COUNT, KAFKA_SETTINGS, loadModelCard, modelsDir } from "@bench/core";
import { scoreFixturesThroughProduct } from "@bench/core/testing";
import { nodeModel, nodePassthrough } from "../../src/product.ts";

const bootstrap = process.env.BENCH_BOOTSTRAP;
if (!bootstrap) throw new Error("BENCH_BOOTSTRAP is not set: point it at a Kafka broker, e.g. BENCH_BOOTSTRAP=127.0.0.1:19092");

const cacheDir = join(cacheRoot(), "node");
const log = (): void => undefined;

describe.each([
  ["node", nodeModel],
  ["node-passthrough", nodePassthrough],
])("%s adapter", (_id, product) => {
  it("scores every fixture record, commits, runs with the shared client settings and stops cleanly", async () => {
    const run = await scoreFixturesThroughProduct(product, { bootstrap, cacheDir, topicPrefix: `${product.id}-it`, log, keepRunning: true });
    try {
      expect(run).toMatchObject({ fixtureCount: FIXTURE_COUNT, problems: [], missing: [], consumed: FIXTURE_COUNT });
      expect(run.outputs.size).toBe(FIXTURE_COUNT);
      if (!product.passthrough) {
        expect(run.tsMismatches).toEqual([]);
        expect(run.maxRiskError).toBeLessThanOrEqual(loadModelCard(modelsDir()).tolerance);
      }
      expect(effectiveSettingsMismatches(run.running.logTail(500), KAFKA_SETTINGS)).toEqual([]);
    } finally {
      expect(await run.stop()).toEqual({ exit: { code: 0, signal: null }, aliveAfterStop: [] });
    }
  }, 120_000);
});
