/**
 * The faults scenario against the real broker, per product that runs here, at a low rate:
 * poison pills among the records, kill -9 of the whole tree mid-window, restart, drain. The
 * loss is re-counted here from the topics themselves (every good id in the input topic
 * against the ids in the output topic), so the run's own count is checked, not trusted.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  cacheRoot,
  FIXTURE_SEED,
  fixturesDir,
  KafkaAdmin,
  loadFixtures,
  modelsDir,
  productCacheDir,
  ReferenceModel,
  repoRoot,
  type Product,
} from "@bench/core";
import { requireBootstrap } from "@bench/core/testing";
import { testBenchContext } from "./bench-context.ts";
import { recount } from "./recount.ts";
import { runFaults, type FaultSettings } from "../../src/faults/run-faults.ts";
import type { BenchContext } from "../../src/run/context.ts";
import { discoverProducts } from "../../src/run/discover.ts";
import { measureSpeedIndex } from "../../src/run/speed-index.ts";

const bootstrap = requireBootstrap();

describe("faults: poison pills and kill -9 with restart, against the real broker", () => {
  let admin: KafkaAdmin;
  let bench: BenchContext;
  let products: Product[];

  beforeAll(async () => {
    admin = await KafkaAdmin.connect(bootstrap);
    products = await discoverProducts(repoRoot());
    bench = await testBenchContext(bootstrap, admin, { name: "faults-it", speedReference: (await measureSpeedIndex()).recordsPerCpuSecond });
  }, 60_000);
  afterAll(async () => admin?.close());

  const settings: FaultSettings = {
    rate: 1000,
    warmupSec: 6,
    windowSec: 12,
    parallelism: 1,
    seed: FIXTURE_SEED,
    drainTimeoutSec: 300,
    hangSec: 30,
    poisonRounds: 2,
    keepTopics: true,
  };

  async function faultRun(id: string) {
    const product = products.find((p) => p.id === id) as Product;
    const prepared = await product.prepare(
      { repoRoot: repoRoot(), modelsDir: modelsDir(), cacheDir: productCacheDir(cacheRoot(), product), log: () => undefined },
    );
    if (!prepared.ok) throw new Error(prepared.reason);
    const run = await runFaults(product, prepared, settings, bench);
    // What the product did, for the record (the assertions below judge it).
    const { ticks: _ticks, versions: _versions, ...summary } = run;
    console.log(`${id} faults: ${JSON.stringify(summary)}`);
    const topics = run.topics as { inputTopic: string; outputTopic: string };
    try {
      return { run, recounted: await recount(bootstrap, topics, admin) };
    } finally {
      await admin.deleteTopics([topics.inputTopic, topics.outputTopic]).catch(() => undefined);
    }
  }

  // Products whose delivery commits an offset only after its output is acknowledged (rust: its
  // commit follows the delivery reports of everything before it; faststream: its handler awaits
  // the batch's acks before AckPolicy.ACK commits).
  it.each(["node", "quix", "flink", "rust", "faststream"])("%s: survives every pill, skips each, and loses nothing to kill -9 and restart", async (id) => {
    const { run, recounted } = await faultRun(id);
    expect(run.reason).toBeUndefined();
    expect(run).toMatchObject({ status: "ok", survivedPills: true, pills: 14, pillsSkipped: 14, undrained: 0 });
    expect(run.kill!.processes).toBeGreaterThan(0);
    expect(run.tally).toMatchObject({ lost: 0, poisonOut: 0, unreadable: 0 });
    expect(recounted).toEqual({ lost: 0, pills: 14 });
    expect(run.firstOutputSec).toBeGreaterThan(0);
    expect(run.drainedSec).toBeGreaterThan(0);
  }, 900_000);
});
