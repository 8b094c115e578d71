/**
 * The node rows against the dev broker: the gate's fixtures in (256 generated records, then
 * every spelling case as its raw text), scored (or passed through) out, the group's committed
 * offset at the end, a clean stop, and the clients' effective librdkafka configuration (printed
 * by debug=conf) equal to the shared settings; under both guarantees (exactly-once: a transaction
 * per batch, whose committed offsets the consumed count reads and which the stop leaves closed).
 */
import { join } from "node:path";
import { cacheRoot, effectiveSettingsMismatches, FIXTURE_COUNT, GUARANTEES, KAFKA_SETTINGS } from "@bench/core";
import { expectGatePassed, requireBootstrap, scoreFixturesThroughProduct } from "@bench/core/testing";
import { nodeModel, nodePassthrough } from "../../src/product.ts";

const bootstrap = requireBootstrap();
const cacheDir = join(cacheRoot(), "node");
const log = (): void => undefined;

describe.each([
  ["node", nodeModel],
  ["node-passthrough", nodePassthrough],
])("%s adapter", (_id, product) => {
  it.each(GUARANTEES)("%s: scores every fixture record, commits, runs with the shared client settings and stops cleanly", async (guarantee) => {
    const topicPrefix = `${product.id}-it-${guarantee === "exactly-once" ? "eo" : "alo"}`;
    const run = await scoreFixturesThroughProduct(product, { bootstrap, cacheDir, topicPrefix, guarantee, log, keepRunning: true });
    try {
      expectGatePassed(run);
      expect(run.consumed).toBe(FIXTURE_COUNT);
      expect(effectiveSettingsMismatches(run.running.logTail(500), KAFKA_SETTINGS)).toEqual([]);
    } finally {
      expect(await run.stop()).toEqual({ exit: { code: 0, signal: null }, aliveAfterStop: [] });
    }
  }, 120_000);
});
