import type { Tick } from "../results/types.ts";
import { BACKLOG_LEFT_SEC, drainWindowEnd } from "./drain-window.ts";

const rule = { minSec: 10, maxSec: 30, relHalfWidth: 0.02 };

/** A pre-filled backlog of `backlog` records drained at `rate`/s from t = 0, at a steady cost. */
function draining(seconds: number, rate: number, backlog: number): Tick[] {
  return Array.from({ length: seconds + 1 }, (_, t) => ({
    t,
    phase: "window" as const,
    inputEnd: backlog,
    consumed: Math.min(backlog, rate * t),
    outputEnd: Math.min(backlog, rate * t),
    cpuPercent: 100,
    memMb: 300,
    processes: 1,
    instrument: "pss" as const,
  }));
}

describe("drainWindowEnd", () => {
  it("goes on while the figure is not known and the backlog lasts", () => {
    expect(drainWindowEnd(draining(5, 100_000, 3_000_000), rule)).toBeUndefined();
  });

  it("ends once the figure is known", () => {
    expect(drainWindowEnd(draining(10, 100_000, 3_000_000), rule)).toBe("known");
  });

  it("has two window ticks at least, even when the backlog has run out", () => {
    expect(drainWindowEnd(draining(1, 100_000, 50_000), rule)).toBeUndefined();
    expect(drainWindowEnd(draining(2, 100_000, 50_000), rule)).toBe("backlog-low");
  });

  it("ends before the backlog runs out, whatever the interval says", () => {
    // 3M at 175k/s: at 15 s 375k are left, under 3 s of it.
    expect(drainWindowEnd(draining(15, 175_000, 3_000_000), rule)).toBe("backlog-low");
    expect(drainWindowEnd(draining(5, 175_000, 175_000 * (5 + BACKLOG_LEFT_SEC + 1)), rule)).toBeUndefined();
  });
});
