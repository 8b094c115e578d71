import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  classifyRegime,
  commitDrift,
  commitPeriodTicks,
  consumedRate,
  consumedSlope,
  extraRecordsPerRecord,
  lagDrift,
  percentile,
  resources,
  robustSlope,
  slope,
  throughput,
} from "./derive.ts";
import type { Tick } from "../results/types.ts";

/** A synthetic window: offered and consumed at fixed rates, committed in steps of `commitEvery` s. */
function series(offered: number, consumed: number, seconds: number, opts: { backlog?: number; commitEvery?: number } = {}): Tick[] {
  const step = opts.commitEvery ?? 1;
  return Array.from({ length: seconds + 1 }, (_, t) => ({
    t,
    phase: "window" as const,
    inputEnd: 1_000_000 + offered * t,
    consumed: 1_000_000 - (opts.backlog ?? 0) + consumed * Math.floor(t / step) * step,
    outputEnd: consumed * t,
    cpuPercent: 50 + (t % 2) * 10,
    memMb: 512,
    processes: 3,
    instrument: "pss" as const,
  }));
}

describe("slope", () => {
  it("fits a straight line exactly", () => {
    expect(slope([0, 1, 2, 3], [5, 7, 9, 11])).toBeCloseTo(2, 12);
  });
  it("is zero for a single point", () => {
    expect(slope([1], [4])).toBe(0);
  });
});

describe("lag drift and regime", () => {
  it("a product that keeps up has a flat backlog", () => {
    const w = series(50_000, 50_000, 30);
    expect(lagDrift(w)).toBeCloseTo(0, 9);
    const row = throughput(w);
    expect(row.regime).toBe("keep-up");
    expect(row.consumedPerSec).toBe(50_000);
  });

  it("a product fed beyond capacity is saturated, and its consumed/s is the ceiling", () => {
    const row = throughput(series(100_000, 80_000, 30));
    expect(row.lagDrift).toBeCloseTo(0.25, 6); // 20k/s of growth per 80k/s consumed
    expect(row.regime).toBe("saturated");
    expect(row.consumedPerSec).toBe(80_000);
  });

  it("a product eating a warmup backlog is draining", () => {
    const row = throughput(series(50_000, 60_000, 30, { backlog: 400_000 }));
    expect(row.lagDrift).toBeLessThan(-0.02);
    expect(row.regime).toBe("draining");
  });

  it("commits in 5 s steps do not turn a flat backlog into drift", () => {
    const w = series(50_000, 50_000, 30, { commitEvery: 5 });
    expect(Math.abs(lagDrift(w))).toBeLessThan(0.02);
    expect(throughput(w).regime).toBe("keep-up");
  });

  it("a product that consumed nothing while records arrive has unbounded drift", () => {
    expect(lagDrift(series(1000, 0, 10))).toBe(Number.POSITIVE_INFINITY);
    expect(classifyRegime(1000, 0, Number.POSITIVE_INFINITY)).toBe("saturated");
  });

  it("a little drift inside the tolerance stays keep-up", () => {
    expect(classifyRegime(39_592, 39_307, 0.007)).toBe("keep-up");
    expect(classifyRegime(395_733, 359_194, 0.104)).toBe("saturated");
  });
});

describe("derived efficiency", () => {
  it("divides by cores, memory and records as the page defines them", () => {
    const row = throughput(series(100_000, 100_000, 10));
    const cpu = resources(series(100_000, 100_000, 10)).cpuAvg;
    expect(row.cpuAvg).toBeCloseTo(cpu, 9);
    expect(row.rowsPerCore).toBeCloseTo(100_000 / (cpu / 100), 6);
    expect(row.rowsPerGb).toBeCloseTo(100_000 / 0.5, 6);
    expect(row.cpuMicrosPerInference).toBeCloseTo(((cpu / 100) * 1e6) / 100_000, 9);
    expect(extraRecordsPerRecord(50_000, 1_000_000)).toBeCloseTo(0.05, 9);
    expect(extraRecordsPerRecord(50_000, 0)).toBe(0);
  });

  it("p95 is a value from the series", () => {
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 100], 95)).toBe(19);
    expect(resources(series(1, 1, 3)).instrument).toBe("pss");
  });
});

describe("rates under step commits", () => {
  it("one late commit at the window's end does not turn a product that keeps up into a saturated one", () => {
    // 2000/s consumed and committed each second, but the commit due just before the last tick
    // came late: the end points alone read 1900/s (5 % short, "saturated").
    const window: Tick[] = Array.from({ length: 21 }, (_, t) => ({
      t, phase: "window" as const, inputEnd: 2000 * t, consumed: 2000 * (t === 20 ? 19 : t), outputEnd: 2000 * t,
      cpuPercent: 45, memMb: 280, processes: 1, instrument: "pss" as const,
    }));
    const row = throughput(window);
    expect(Math.abs(row.consumedPerSec - 2000) / 2000).toBeLessThan(0.02);
    expect(row.regime).toBe("keep-up");
  });
});

describe("regime from the work done (a measured quix sweep)", () => {
  // The window ticks of every quix run of that sweep, as measured. At 10k, 12.5k and 15k the
  // output topic grew at the offered rate with p50 latency of 17-21 ms, but a late commit made
  // the committed-offset slope read them saturated, and the knee came out at 5k.
  const evidence = JSON.parse(readFileSync(join(import.meta.dirname, "__fixtures__", "quix-sweep-2026-12-01.json"), "utf8")) as {
    runs: Array<{ rate: number; regimeThen: string; window: Tick[] }>;
  };

  it.each([10_000, 12_500, 15_000])("quix kept up at %i/s and is classed keep-up", (rate) => {
    const runs = evidence.runs.filter((r) => r.rate === rate);
    expect(runs.length).toBeGreaterThan(0);
    for (const run of runs) {
      const row = throughput(run.window);
      expect(row.regime).toBe("keep-up");
      expect(Math.abs(row.consumedPerSec - rate) / rate).toBeLessThan(0.03);
    }
    expect(runs.some((r) => r.regimeThen === "saturated")).toBe(true); // what the old reading said
  });

  it("quix fed 20k/s, beyond what it does, is still saturated", () => {
    const run = evidence.runs.find((r) => r.rate === 20_000)!;
    const row = throughput(run.window);
    expect(row.regime).toBe("saturated");
    expect(row.outputPerSec).toBeLessThan(19_000);
  });

  it("a product that republishes but stops committing is not keeping up", () => {
    const w = series(10_000, 10_000, 20).map((t) => ({ ...t, consumed: t.t < 5 ? t.consumed : (series(10_000, 10_000, 20)[5] as Tick).consumed }));
    expect(commitDrift(w)).toBeGreaterThan(0.02);
    expect(throughput(w).regime).toBe("saturated");
  });

  it("the robust slope ignores one late commit; least squares does not", () => {
    const ts = Array.from({ length: 21 }, (_, t) => t);
    const ys = ts.map((t) => (t === 19 ? 18_000 : t * 1000));
    expect(robustSlope(ts, ys)).toBe(1000);
    expect(slope(ts, ys)).toBeLessThan(1000);
  });
});

describe("a commit step is not saturation (a measured quix sweep on a second machine)", () => {
  // Every quix window of that sweep. At 20,000/s one run read saturated at 19,063/s though its
  // output kept pace to the second: one commit came a second late (the committed offset stood
  // still from second 22 to 23) and every later commit trailed by one interval.
  const evidence = JSON.parse(readFileSync(join(import.meta.dirname, "__fixtures__", "quix-sweep-2026-12-01-second-machine.json"), "utf8")) as {
    runs: Array<{ rate: number; regimeThen: string; consumedPerSecThen: number; outputPerSecThen: number; window: Tick[] }>;
  };

  it("the late-commit run keeps up, and its consumed/s is within the rate tolerance of its output", () => {
    const late = evidence.runs.filter((r) => r.regimeThen === "saturated");
    expect(late).toHaveLength(1);
    const run = late[0]!;
    expect(run.consumedPerSecThen).toBeLessThan(run.rate * 0.96); // what the fitted line read
    const row = throughput(run.window);
    expect(row.regime).toBe("keep-up");
    expect(Math.abs(row.consumedPerSec - row.outputPerSec) / row.outputPerSec).toBeLessThan(0.01);
  });

  it("every quix run of that sweep that kept pace is keep-up, with consumed/s within 3% of the rate", () => {
    for (const run of evidence.runs) {
      const row = throughput(run.window);
      expect(row.regime).toBe("keep-up");
      expect(Math.abs(row.consumedPerSec - run.rate) / run.rate).toBeLessThan(0.03);
    }
  });

  it("a phase shift of one commit step moves consumed/s by less than the step's share of the window", () => {
    // 10,000/s committed each second; from second 12 on every commit is a step behind.
    const w: Tick[] = series(10_000, 10_000, 30).map((t) => (t.t >= 12 ? { ...t, consumed: t.consumed - 10_000 } : t));
    const stepShare = 1 / 30;
    expect(Math.abs(consumedRate(w) - 10_000) / 10_000).toBeLessThan(stepShare);
    expect(commitDrift(w)).toBeLessThanOrEqual(0.02);
    expect(throughput(w).regime).toBe("keep-up");
  });

  it("reads a drain's staircase of batches longer than a tick at its mean pace, where the spans' median reads whole steps", () => {
    // A measured spark drain window (sitting M of 2026-12-07): 100,000-record micro-batches that
    // took about 1.45 s each (its log), committed when each finished; 700,000 over the 10 s.
    const committed = [500_315, 600_315, 700_315, 700_315, 800_315, 900_315, 900_315, 1_000_315, 1_000_315, 1_200_315, 1_200_315];
    const w: Tick[] = committed.map((consumed, i) => ({ ...(series(0, 0, 10)[i] as Tick), t: 16 + i, consumed }));
    expect(consumedRate(w)).toBe(50_000);
    expect(consumedSlope(w)).toBeGreaterThan(0.9 * 70_000);
    expect(consumedSlope(w)).toBeLessThan(1.1 * 70_000);
  });

  it("reads a drain committed every second, and one whose last commit came late, at its rate", () => {
    expect(consumedSlope(series(0, 80_000, 15))).toBe(80_000);
    const late = series(0, 80_000, 15).map((t) => (t.t === 15 ? { ...t, consumed: t.consumed - 80_000 } : t));
    expect(Math.abs(consumedSlope(late) - 80_000) / 80_000).toBeLessThan(0.02);
  });

  it("reads the commit period from the staircase", () => {
    expect(commitPeriodTicks(series(50_000, 50_000, 30, { commitEvery: 5 }))).toBe(5);
    expect(commitPeriodTicks(series(50_000, 50_000, 30))).toBe(1);
    expect(consumedRate(series(50_000, 50_000, 30, { commitEvery: 5 }))).toBe(50_000);
  });

  it("commits that trail further every second are still a product falling behind", () => {
    // Output keeps pace, but each commit covers only 90% of what was republished since the last.
    const w = series(10_000, 10_000, 20).map((t) => ({ ...t, consumed: t.consumed - 1000 * t.t }));
    expect(commitDrift(w)).toBeGreaterThan(0.02);
    expect(throughput(w).regime).toBe("saturated");
  });
});

