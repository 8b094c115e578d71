/**
 * The risingwave row end to end against a real broker and a real RisingWave: the gate's fixture
 * records in (256 generated, then the spelling cases), each scored out with the reference risk,
 * RisingWave's own source offset (the engine counter) at their count, nothing left running.
 *
 * Needs RISINGWAVE_BIN (a risingwave binary, started here in single-node mode) or
 * RISINGWAVE_URL (a running server). No registry reachable from the bench's machines ships the
 * server, so without either the end-to-end test is reported as skipped, its name saying why.
 */
import { join } from "node:path";
import { cacheRoot, FIXTURE_COUNT, missingReason, modelsDir, repoRoot } from "@bench/core";
import { expectGatePassed, requireBootstrap, scoreFixturesThroughProduct } from "@bench/core/testing";
import { locateRisingWave, missingLocation } from "../../src/locate.ts";
import { risingwave } from "../../src/product.ts";

const bootstrap = requireBootstrap();
const cacheDir = join(cacheRoot(), "risingwave");
const log = (line: string): void => console.log(line);
const where = locateRisingWave(process.env);

describe("risingwave adapter", () => {
  test("prepare() agrees with the environment: skips with the reason, or names the server's version", async () => {
    const prep = await risingwave.prepare({ repoRoot: repoRoot(), modelsDir: modelsDir(), cacheDir, log });
    if (where.kind === "none") {
      expect(prep).toEqual({ ok: false, reason: missingReason(missingLocation(where)) });
    } else {
      if (!prep.ok) throw new Error(`prepare failed: ${prep.reason}`);
      expect(Object.keys(prep.versions)).toEqual(expect.arrayContaining(["risingwave", "python", "torch", "arrow-udf"]));
      log(`versions ${JSON.stringify(prep.versions)}`);
    }
  }, 900_000);

  const endToEnd = where.kind === "none" ? test.skip : test;
  const title =
    where.kind === "none"
      ? `end to end SKIPPED: ${where.reason}`
      : "end to end: scores every fixture record with the reference risk; RisingWave's source offset reaches every gate record; stop() leaves nothing running";

  endToEnd(
    title,
    async () => {
      const run = await scoreFixturesThroughProduct(risingwave, {
        bootstrap,
        parallelism: 2,
        cacheDir,
        topicPrefix: "risingwave-it",
        readTimeoutMs: 240_000,
        consumedTimeoutMs: 60_000,
        log,
      });
      // With a binary the product starts the server too: a root besides the UDF server.
      expect(run.rootPids.length).toBeGreaterThanOrEqual(where.kind === "binary" ? 2 : 1);
      // RisingWave's own source offset, read from the engine.
      expect(run.running.consumed.kind).toBe("engine-counter");
      expectGatePassed(run);
      expect(run).toMatchObject({ consumed: FIXTURE_COUNT, aliveAfterStop: [] });
    },
    900_000,
  );
});
