/**
 * The fast knee search's session against the real broker with the node row: a drain over a
 * backlog gendata filled beside the product, then two paced steps (one start, one gate,
 * sequence numbers continuing, one audit whose verdict and latency reach each step).
 */
import { FIXTURE_COUNT, FIXTURE_SEED, KafkaAdmin, modelsDir, cacheRoot, repoRoot, type Prepared, type Product } from "@bench/core";
import { testBenchContext } from "./bench-context.ts";
import { discoverProducts } from "../../src/run/discover.ts";
import type { BenchContext, RunSettings } from "../../src/run/measure.ts";
import { PacedSession } from "../../src/run/paced-session.ts";
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

  // The drain's backlog is sized for a window of up to 15 s (FILL_BACKLOG_SEC); with this test's
  // 8 s window the rest is drained after it, which took over 30 s in one CI run: the runner's
  // default drain timeout, 60 s, gives it room.
  const settings: RunSettings = {
    rate: 0, warmupSec: 3, settleCapSec: 30, windowSec: 8, parallelism: 2, seed: FIXTURE_SEED, drainTimeoutSec: 60, hangSec: 30,
    windowRule: { minSec: 5, maxSec: 8, relHalfWidth: 0.02 },
  };

  it("a paced session: a drain, then two steps; one start and gate, sequence numbers continuing, one audit over all three", async () => {
    const session = new PacedSession(node, prepared, settings, bench);
    await session.open();
    const drain = await session.drainStep();
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

    // The drain: gendata filled a backlog beside the product, timed, and the product drained it alone before the first step.
    expect(drain.reason).toBeUndefined();
    expect(drain.status).toBe("ok");
    expect(drain.sweepPurpose).toBe("drain");
    expect(drain.prefill!.records).toBeGreaterThan(0);
    expect(["filled", "outpaced", "cap"]).toContain(drain.prefill!.besideProduct);
    expect(drain.verification).toMatchObject({ passed: true, checked: FIXTURE_COUNT });
    expect(drain.throughput!.consumedPerSec).toBeGreaterThan(0);
    expect(drain.throughput!.offeredPerSec).toBeCloseTo(0, 6);
    expect(drain.throughput!.cpuMicrosPerInference).toBeGreaterThan(0);
    // A refill (the first backlog ran low before the figure was known) wrote a second fill; a row that worked the probe off, a probe before it.
    const fills = drain.prefill!.records + (drain.uncountedFill?.records ?? 0) + (drain.probeFill?.records ?? 0);
    expect(drain.ticks.at(-1)!.inputEnd).toBe(FIXTURE_COUNT + fills);
    expect(drain.ticks.at(-1)!.consumed).toBe(drain.ticks.at(-1)!.inputEnd);
    expect(first.ticks.at(-1)!.inputEnd).toBeGreaterThan(drain.ticks.at(-1)!.inputEnd);
    // The one audit's verdict reaches the drain too; its records all waited in a backlog, so it has no latency.
    expect(drain.delivery!.produced).toBe(d.produced);
    expect(drain.delivery!.lost).toBe(0);
    expect(drain.delivery!.latencyMs).toBeUndefined();
  }, 300_000);

  it("a round's warm-up: worked off before the step, no figure of its own, its records in the one audit, the step settled as a warm one", async () => {
    const session = new PacedSession(node, prepared, { ...settings, warmupSec: 12 }, bench, "round-2");
    await session.open();
    await session.warmUp(1000, 4);
    const step = await session.step(1500, "round");
    expect(await session.close()).toBeUndefined();
    expect(step.reason).toBeUndefined();
    expect(step.status).toBe("ok");
    // A warm step settles from WARM_SETTLE_SEC on, not from the session's cold warm-up.
    expect(step.settleSec).toBeLessThan(12);
    // The warm-up's records came first: the step's gendata continued after them, and the audit held every one to done.
    const first = step.ticks[0]!;
    expect(first.inputEnd).toBeGreaterThan(FIXTURE_COUNT + 1000);
    expect(step.delivery!.produced).toBe(step.ticks.at(-1)!.inputEnd);
    expect(step.delivery!.lost).toBe(0);
    expect(step.delivery!.duplicated).toBe(0);
  }, 180_000);
});
