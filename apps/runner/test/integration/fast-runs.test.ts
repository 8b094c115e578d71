/**
 * The fast knee search's two kinds of run against the real broker with the node row: a drain
 * run over a small pre-filled backlog, and a paced session of two steps (one start, one gate,
 * sequence numbers continuing, one audit whose verdict and latency reach each step).
 */
import { FIXTURE_COUNT, FIXTURE_SEED, KafkaAdmin, modelsDir, cacheRoot, repoRoot, type Prepared, type Product } from "@bench/core";
import { testBenchContext } from "./bench-context.ts";
import { discoverProducts } from "../../src/run/discover.ts";
import { drainRun } from "../../src/run/drain-run.ts";
import type { BenchContext, RunSettings } from "../../src/run/measure.ts";
import { PacedSession } from "../../src/run/paced-session.ts";
import { PrefilledInput } from "../../src/run/prefilled-input.ts";
import type { RunResult } from "../../src/results/types.ts";

const bootstrap = process.env.BENCH_BOOTSTRAP;

describe("the fast search's runs against the real broker", () => {
  let admin: KafkaAdmin;
  let bench: BenchContext;
  let node: Product;
  let prepared: Prepared & { ok: true };

  beforeAll(async () => {
    if (!bootstrap) throw new Error("BENCH_BOOTSTRAP is not set: run through scripts/test.sh, which starts a broker");
    admin = await KafkaAdmin.connect(bootstrap);
    bench = await testBenchContext(bootstrap, admin, { name: "fast", speedReference: 0 });
    node = (await discoverProducts(repoRoot())).find((p) => p.id === "node") as Product;
    const p = await node.prepare({ repoRoot: repoRoot(), modelsDir: modelsDir(), cacheDir: cacheRoot(), log: () => undefined });
    if (!p.ok) throw new Error(p.reason);
    prepared = p;
  }, 120_000);
  afterAll(async () => admin?.close());

  const settings: RunSettings = {
    rate: 0, warmupSec: 3, settleCapSec: 30, windowSec: 8, parallelism: 2, seed: FIXTURE_SEED, drainTimeoutSec: 30, hangSec: 30,
    windowRule: { minSec: 5, maxSec: 8, relHalfWidth: 0.02 },
  };

  it("a drain run: pre-filled and timed, gated, a drain rate and its cost, and every record it committed audited", async () => {
    // Enough for node on a busy machine to drain through its gate and settle into a window.
    const input = new PrefilledInput(bench, FIXTURE_SEED, 1_000_000);
    let run: RunResult;
    try {
      run = await drainRun(node, prepared, settings, bench, input);
    } finally {
      await input.dispose();
    }
    expect(run.reason).toBeUndefined();
    expect(run.status).toBe("ok");
    expect(run.sweepPurpose).toBe("drain");
    expect(run.prefill).toMatchObject({ records: 1_000_000 });
    expect(run.prefill!.ratePerSec).toBeGreaterThan(0);
    expect(run.verification).toMatchObject({ passed: true, checked: FIXTURE_COUNT });
    expect(run.throughput!.consumedPerSec).toBeGreaterThan(0);
    expect(run.throughput!.offeredPerSec).toBeCloseTo(0, 6);
    expect(run.throughput!.cpuMicrosPerInference).toBeGreaterThan(0);
    const d = run.delivery!;
    expect(d.produced).toBe(FIXTURE_COUNT + 1_000_000);
    expect(d.lost).toBe(0);
    expect(d.misScored).toBe(0);
    expect(d.badOutputs).toBe(0);
    // Drained to the end, or held to the committed prefix it says it was.
    expect(d.distinctOutputs).toBe(d.heldTo ?? d.produced);
  }, 300_000);

  it("a paced session: two steps, one start and gate, sequence numbers continuing, one audit over both", async () => {
    const session = new PacedSession(node, prepared, settings, bench);
    await session.open();
    const first = await session.step(1500, "paced");
    const second = await session.step(2500, "confirm");
    expect(await session.close()).toBeUndefined();
    for (const [run, rate] of [[first, 1500], [second, 2500]] as const) {
      expect(run.reason).toBeUndefined();
      expect(run.status).toBe("ok");
      expect(run.settings.offeredRate).toBe(rate);
      expect(run.throughput!.offeredPerSec).toBeGreaterThan(rate * 0.9);
      expect(run.throughput!.regime).toBe("keep-up");
      expect(run.delivery!.latencyMs!.count).toBeGreaterThan(0);
      expect(run.conditions).toBeDefined();
    }
    // One output topic: the second step's records follow the first's with no gap and no overlap.
    const d = second.delivery!;
    expect(d.produced).toBe(second.ticks.at(-1)!.inputEnd);
    expect(first.ticks.at(-1)!.inputEnd).toBeGreaterThan(FIXTURE_COUNT);
    expect(first.ticks.at(-1)!.inputEnd).toBeLessThan(d.produced);
    expect(d.lost).toBe(0);
    expect(d.duplicated).toBe(0);
    expect(d.distinctOutputs).toBe(d.produced);
    expect(first.delivery!.produced).toBe(d.produced);
  }, 300_000);
});
