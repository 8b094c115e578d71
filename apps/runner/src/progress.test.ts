import type { Tick } from "./results/types.ts";
import { DEFAULT_OVERHEAD_SEC, progressLine, RunProgress, secondsLeftAtMost, setProgressPlan } from "./progress.ts";

const tick = (t: number, phase: Tick["phase"]): Tick => ({
  t,
  phase,
  inputEnd: 0,
  consumed: 0,
  outputEnd: 0,
  cpuPercent: 77.4,
  memMb: 250.2,
  processes: 1,
  instrument: "pss",
});

describe("progress", () => {
  afterEach(() => setProgressPlan({ products: [], maxRunsPerProduct: 1 }));

  it("prints plain lines off a terminal: at the start, at each phase change and every 5 s", () => {
    setProgressPlan({ products: ["node", "quix"], maxRunsPerProduct: 20 });
    const lines: string[] = [];
    let clock = 0;
    const p = new RunProgress(false, (l) => lines.push(l), () => clock);
    p.start("quix", 20_000, 30);
    for (let t = 1; t <= 12; t++) p.update("quix", t <= 10 ? "warmup" : "window", 30 - t, tick(t, t <= 10 ? "warmup" : "window"), 19_998, 20_001);
    // start, t=1 (phase warmup), t=6, t=11 (phase window)
    expect(lines).toHaveLength(4);
    expect(lines[0]).toBe(
      `quix (2/2) step 1 of ≤20 @ 20,000/s start | 30s left of this run, ≤${Math.floor((30 + 19 * 60) / 60)}m` +
        `${String((30 + 19 * 60) % 60).padStart(2, "0")}s in all`,
    );
    expect(lines[3]).toContain("@ 20,000/s window | 19s left of this run");
    expect(lines[3]).toContain("offered 19,998/s consumed 20,001/s cpu 77% mem 250 MB");
  });

  it("counts a product's steps and estimates from the runs timed so far", () => {
    setProgressPlan({ products: ["node"], maxRunsPerProduct: 20 });
    const lines: string[] = [];
    let clock = 0;
    const p = new RunProgress(false, (l) => lines.push(l), () => clock);
    p.start("node", 10_000, 30);
    clock = 80; // the first run took 80 s in all
    p.stop();
    p.start("node", 20_000, 30);
    expect(lines[1]).toBe("node (1/1) step 2 of ≤20 @ 20,000/s start | 30s left of this run, ≤24m30s in all");
  });

  it("bounds the time left by this run, the product's remaining steps and the products after it", () => {
    const s = {
      product: "node",
      productIndex: 1,
      products: 3,
      step: 4,
      maxSteps: 20,
      rate: 1,
      phase: "window" as const,
      runLeftSec: 10,
      runSec: 60,
      offered: 0,
      consumed: 0,
      cpu: 0,
      memMb: 0,
    };
    expect(secondsLeftAtMost(s)).toBe(10 + 16 * 60 + 2 * 20 * 60);
    expect(secondsLeftAtMost({ ...s, productIndex: 0, products: 0, maxSteps: 4 })).toBe(10);
    expect(progressLine({ ...s, productIndex: 0, products: 0, maxSteps: 1, step: 1 })).toBe(
      "node @ 1/s window | 10s left of this run | offered 0/s consumed 0/s cpu 0% mem 0 MB",
    );
    // A drain run (rate 0) says what it does rather than "@ 0/s".
    expect(progressLine({ ...s, productIndex: 0, products: 0, maxSteps: 1, step: 1, rate: 0 })).toBe(
      "node drain of a backlog, window | 10s left of this run | offered 0/s consumed 0/s cpu 0% mem 0 MB",
    );
  });

  it("assumes warmup + window + a fixed overhead per run before any run is timed", () => {
    setProgressPlan({ products: ["a", "b"], maxRunsPerProduct: 1 });
    const lines: string[] = [];
    const p = new RunProgress(false, (l) => lines.push(l), () => 0);
    p.start("a", 5000, 40);
    expect(lines[0]).toContain(`≤${Math.floor((40 + 40 + DEFAULT_OVERHEAD_SEC) / 60)}m`);
  });
});
