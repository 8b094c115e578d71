/**
 * gendata + the node adapter against the real broker, through the same measured run the
 * bench uses, at a low rate for a short window.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  cacheRoot,
  CLOCK_TICKS,
  FIXTURE_COUNT,
  FIXTURE_SEED,
  readStat,
  fixturesDir,
  KafkaAdmin,
  loadFixtures,
  modelsDir,
  ReferenceModel,
  repoRoot,
  type Product,
} from "@bench/core";
import { requireBootstrap } from "@bench/core/testing";
import { testBenchContext } from "./bench-context.ts";
import { discoverProducts } from "../../src/run/discover.ts";
import { MachineWatch } from "../../src/run/machine.ts";
import { measureRun, type BenchContext } from "../../src/run/measure.ts";

const bootstrap = requireBootstrap();

/** A process that burns about 40 % of a core: 8 ms busy in every 20 ms. Its real share is read from /proc. */
function startBurner(): ChildProcess {
  return spawn(
    process.execPath,
    ["-e", "const tick = () => { const end = Date.now() + 8; while (Date.now() < end); setTimeout(tick, 12); }; tick();"],
    { stdio: "ignore" },
  );
}

/** From now on, what one process burns, 100 = one core: call the result to read it. */
function shareOf(pid: number): () => number {
  const ticksOf = (): number => readStat(pid)!.cpuTicks;
  const [ticks0, wall0] = [ticksOf(), performance.now()];
  return () => ((ticksOf() - ticks0) / CLOCK_TICKS / ((performance.now() - wall0) / 1000)) * 100;
}

describe("a measured run of the node rows against the real broker", () => {
  let admin: KafkaAdmin;
  let bench: BenchContext;
  let products: Product[];

  beforeAll(async () => {
    admin = await KafkaAdmin.connect(bootstrap);
    products = await discoverProducts(repoRoot());
    // speedReference 0: no speed-index comparison. These tests are about foreign load and the run;
    // the VM's own speed moves ±30 % between readings, and the index has tests of its own.
    bench = await testBenchContext(bootstrap, admin, { name: "it", speedReference: 0 });
  }, 60_000);
  afterAll(async () => admin?.close());

  const settings = { rate: 2000, warmupSec: 3, settleCapSec: 30, windowSec: 8, parallelism: 2, seed: FIXTURE_SEED, drainTimeoutSec: 30, hangSec: 30 };

  it("node: consumed matches offered, nothing lost, every checked score equals the reference", async () => {
    const product = products.find((p) => p.id === "node") as Product;
    const prepared = await product.prepare({ repoRoot: repoRoot(), modelsDir: modelsDir(), cacheDir: cacheRoot(), log: () => undefined });
    if (!prepared.ok) throw new Error(prepared.reason);
    const run = await measureRun(product, prepared, settings, bench);
    expect(run.reason).toBeUndefined();
    expect(run.status).toBe("ok");
    expect(run.verification).toMatchObject({ passed: true, checked: FIXTURE_COUNT });
    const t = run.throughput!;
    expect(t.offeredPerSec).toBeGreaterThan(settings.rate * 0.9);
    expect(Math.abs(t.consumedPerSec - t.offeredPerSec) / t.offeredPerSec).toBeLessThan(0.05);
    expect(Math.abs((run.selectivity as number) - 1)).toBeLessThan(0.01);
    expect(run.delivery!.lost).toBe(0);
    expect(run.delivery!.distinctOutputs).toBe(run.delivery!.produced);
    expect(run.delivery!.scoresChecked).toBeGreaterThan(1000);
    expect(run.delivery!.maxScoreError).toBeLessThanOrEqual(bench.reference.card.tolerance);
    expect(run.resources!.samples).toBeGreaterThanOrEqual(7);
    expect(run.resources!.cpuAvg).toBeGreaterThan(0);
    expect(run.harness!.samplerCpuPercent).toBeLessThan(5);
    expect(run.settled).toBe(true);
    expect(run.delivery!.misScored).toBe(0);
  }, 180_000);

  it("a load the test starts beside the run is counted as foreign load and makes the run noisy", async () => {
    const node = products.find((p) => p.id === "node") as Product;
    const prepared = await node.prepare({ repoRoot: repoRoot(), modelsDir: modelsDir(), cacheDir: cacheRoot(), log: () => undefined });
    if (!prepared.ok) throw new Error(prepared.reason);
    const burner = startBurner();
    try {
      await new Promise((r) => setTimeout(r, 500));
      const share = shareOf(burner.pid!);
      const busy = await measureRun(node, prepared, settings, bench);
      const burned = share();
      expect(burned).toBeGreaterThan(20);
      expect(busy.status).toBe("ok");
      expect(busy.conditions!.noisy).toBe(true);
      expect(busy.conditions!.noisyBecause.join("; ")).toMatch(/foreign load/);
      // At least what the burner burned: whatever else runs on the machine only adds to it.
      expect(busy.conditions!.foreignCpuAvg).toBeGreaterThan(burned - 6);
      expect(busy.ticks.filter((t) => t.phase === "window").every((t) => t.foreignCpuPercent !== undefined && t.stealPercent !== undefined)).toBe(true);
    } finally {
      burner.kill("SIGKILL");
    }
  }, 240_000);

  it("the harness's own processes are not foreign load: a load named as harness is counted as harness, not as foreign", async () => {
    // Two watches over the same seconds, ticked back to back, see the same background; they differ
    // only in that one names the burner as the harness's gendata. So the difference is the burner's
    // share, however busy the rest of the machine is.
    const burner = startBurner();
    try {
      await new Promise((r) => setTimeout(r, 500));
      const asHarness = new MachineWatch(() => [], { runner: process.pid, gendata: () => [burner.pid!], broker: () => [] });
      const unnamed = new MachineWatch(() => [], { runner: process.pid, gendata: () => [], broker: () => [] });
      asHarness.tick();
      unnamed.tick();
      const share = shareOf(burner.pid!);
      await new Promise((r) => setTimeout(r, 4000));
      const harnessTick = asHarness.tick();
      const unnamedTick = unnamed.tick();
      const burned = share();
      expect(burned).toBeGreaterThan(20);
      expect(Math.abs(harnessTick.harness.gendata - burned)).toBeLessThan(5);
      expect(Math.abs(unnamedTick.foreignCpuPercent - harnessTick.foreignCpuPercent - burned)).toBeLessThan(5);
    } finally {
      burner.kill("SIGKILL");
    }
  }, 30_000);

  it("a product that dies mid-run gets a failed row with its log tail, and the run ends", async () => {
    const node = products.find((p) => p.id === "node") as Product;
    const dying: Product = {
      ...node,
      id: "node-dying",
      start: async (ctx, found) => {
        const running = await node.start(ctx, found);
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
