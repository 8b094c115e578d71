/**
 * The node app against the dev broker with poison pills among the 256 generated fixtures (the
 * spelling cases after them): each pill is skipped and counted, every good record around it,
 * whatever its JSON spelling, is scored and republished, the app lives on.
 */
import { join } from "node:path";
import { cacheRoot, FIXTURE_COUNT, GENERATED_FIXTURE_COUNT, POISON_KINDS, poisonSchedule } from "@bench/core";
import { scoreFixturesThroughProduct, type LiveFixtureRun } from "@bench/core/testing";
import { nodeModel } from "../../src/product.ts";

const bootstrap = process.env.BENCH_BOOTSTRAP;
if (!bootstrap) throw new Error("BENCH_BOOTSTRAP is not set: point it at a Kafka broker, e.g. BENCH_BOOTSTRAP=127.0.0.1:19092");

describe("node app with poison pills", () => {
  let run: LiveFixtureRun | undefined;
  afterAll(async () => {
    await run?.stop();
  });

  it("skips and counts every pill, scores every good record, keeps running and stops cleanly", async () => {
    const pills = poisonSchedule({ seed: 7, rounds: 2, firstSeq: 1, span: GENERATED_FIXTURE_COUNT - 1 });
    run = await scoreFixturesThroughProduct(nodeModel, {
      bootstrap,
      cacheDir: join(cacheRoot(), "node"),
      topicPrefix: "node-poison-it",
      poison: pills,
      keepRunning: true,
    });
    expect(run).toMatchObject({ problems: [], missing: [], tsMismatches: [], strayOutputs: 0, inputCount: FIXTURE_COUNT + 2 * POISON_KINDS.length });
    expect(run.outputs.size).toBe(FIXTURE_COUNT);
    expect(run.maxRiskError).toBeLessThan(1e-5);
    // The pills' offsets are committed too: skipped, not stuck.
    expect(run.consumed).toBe(run.inputCount);
    expect(run.running.logTail(400).match(/skipped record at offset/g)).toHaveLength(pills.length);
    const stopped = await run.stop();
    // A stop that was not clean says why in the app's own words.
    if (stopped.exit.code !== 0) console.log(`node app log after stop:\n${run.running.logTail(40)}`);
    expect(stopped).toEqual({ exit: { code: 0, signal: null }, aliveAfterStop: [] });
  }, 300_000);
});
