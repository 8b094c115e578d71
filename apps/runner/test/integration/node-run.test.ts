/**
 * gendata + the node adapter against the real broker, through the same measured run the
 * bench uses, at a low rate for a short window.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cacheRoot, FIXTURE_SEED, fixturesDir, KafkaAdmin, loadFixtures, modelsDir, ReferenceModel, repoRoot, type Product } from "@bench/core";
import { discoverProducts } from "../../src/run/discover.ts";
import { measureRun, type BenchContext } from "../../src/run/measure.ts";

const bootstrap = process.env.BENCH_BOOTSTRAP;

describe("a measured run of the node rows against the real broker", () => {
  let admin: KafkaAdmin;
  let bench: BenchContext;
  let products: Product[];

  beforeAll(async () => {
    if (!bootstrap) throw new Error("BENCH_BOOTSTRAP is not set: run through scripts/test.sh, which starts a broker");
    admin = await KafkaAdmin.connect(bootstrap);
    products = await discoverProducts(repoRoot());
    bench = {
      bootstrap,
      admin,
      reference: await ReferenceModel.load(modelsDir()),
      fixtures: loadFixtures(fixturesDir()),
      repoRoot: repoRoot(),
      modelsDir: modelsDir(),
      cacheDir: cacheRoot(),
      resultsDir: mkdtempSync(join(tmpdir(), "bench-it-")),
      log: () => undefined,
      interrupted: () => undefined,
    };
  });
  afterAll(async () => admin?.close());

  const settings = { rate: 2000, warmupSec: 3, windowSec: 8, parallelism: 2, seed: FIXTURE_SEED, drainTimeoutSec: 30, hangSec: 30 };

  it("node: consumed matches offered, nothing lost, every checked score equals the reference", async () => {
    const product = products.find((p) => p.id === "node") as Product;
    const prepared = await product.prepare({ repoRoot: repoRoot(), modelsDir: modelsDir(), cacheDir: cacheRoot(), log: () => undefined });
    if (!prepared.ok) throw new Error(prepared.reason);
    const run = await measureRun(product, prepared, settings, bench);
    expect(run.reason).toBeUndefined();
    expect(run.status).toBe("ok");
    expect(run.verification).toMatchObject({ passed: true, checked: 256 });
    const t = run.throughput!;
    expect(t.offeredPerSec).toBeGreaterThan(settings.rate * 0.9);
    expect(Math.abs(t.consumedPerSec - t.offeredPerSec) / t.offeredPerSec).toBeLessThan(0.05);
    expect(Math.abs((run.selectivity as number) - 1)).toBeLessThan(0.01);
    expect(run.delivery!.lost).toBe(0);
    expect(run.delivery!.distinctOutputs).toBe(run.delivery!.produced);
    expect(run.delivery!.scoresChecked).toBeGreaterThan(1000);
    expect(run.delivery!.maxScoreError).toBeLessThanOrEqual(1e-5);
    expect(run.resources!.samples).toBeGreaterThanOrEqual(7);
    expect(run.resources!.cpuAvg).toBeGreaterThan(0);
    expect(run.harness!.samplerCpuPercent).toBeLessThan(5);
  }, 180_000);

  it("a product that dies mid-run gets a failed row with its log tail, and the run ends", async () => {
    const node = products.find((p) => p.id === "node") as Product;
    const dying: Product = {
      ...node,
      id: "node-dying",
      start: async (ctx) => {
        const running = await node.start(ctx);
        setTimeout(() => process.kill(running.rootPids()[0] as number, "SIGKILL"), 6_000);
        return running;
      },
    };
    const prepared = await dying.prepare({ repoRoot: repoRoot(), modelsDir: modelsDir(), cacheDir: cacheRoot(), log: () => undefined });
    if (!prepared.ok) throw new Error(prepared.reason);
    const run = await measureRun(dying, prepared, { ...settings, warmupSec: 2, windowSec: 20 }, bench);
    expect(run.status).toBe("failed");
    expect(run.reason).toMatch(/exited during the run \(code null, signal SIGKILL\)/);
    expect(run.reason).toContain("BENCH_READY");
  }, 180_000);
});
