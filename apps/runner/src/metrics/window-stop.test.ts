import type { Tick } from "../results/types.ts";
import { microsEstimate, microsPerPeriod, windowKnown, type WindowStopRule } from "./window-stop.ts";

/** `seconds` ticks consuming `rate`/s, committed every `commitEvery` s, at the CPU `cpuAt(t)` gives (100 = one core). */
function ticks(seconds: number, rate: number, cpuAt: (t: number) => number, commitEvery = 1): Tick[] {
  return Array.from({ length: seconds + 1 }, (_, t) => ({
    t,
    phase: "window" as const,
    inputEnd: rate * t,
    consumed: rate * Math.floor(t / commitEvery) * commitEvery,
    outputEnd: rate * t,
    cpuPercent: cpuAt(t),
    memMb: 300,
    processes: 1,
    instrument: "pss" as const,
  }));
}

const rule: WindowStopRule = { minSec: 10, maxSec: 40, relHalfWidth: 0.02 };

describe("microsPerPeriod", () => {
  it("is the CPU of each whole commit period over the records its commits moved", () => {
    // 50 % of a core at 10,000/s: 0.5 s of CPU per 10,000 records = 50 µs each.
    expect(microsPerPeriod(ticks(6, 10_000, () => 50))).toEqual([50, 50, 50, 50, 50, 50]);
    // Commits every 5 s: one sample per 5 s, never a part-period with no records in it.
    expect(microsPerPeriod(ticks(15, 10_000, () => 50, 5))).toEqual([50, 50, 50]);
  });
});

describe("microsEstimate", () => {
  it("has no interval from fewer than four periods", () => {
    expect(microsEstimate(ticks(3, 10_000, () => 50)).relHalfWidth).toBe(Number.POSITIVE_INFINITY);
  });

  it("gives the 95% interval of the mean as a share of it", () => {
    // Alternating 45 / 55 µs over 10 periods: mean 50, sd 5.27, t(9) 2.262 -> ±7.5 % of the mean.
    const e = microsEstimate(ticks(10, 10_000, (t) => (t % 2 === 0 ? 55 : 45)));
    expect(e.micros).toBeCloseTo(50, 9);
    expect(e.periods).toBe(10);
    expect(e.relHalfWidth).toBeCloseTo((2.2621571628 * (Math.sqrt(250 / 9) / Math.sqrt(10))) / 50, 6);
  });
});

describe("windowKnown", () => {
  it("ends a steady window at its minimum", () => {
    expect(windowKnown(ticks(9, 10_000, () => 50), rule)).toBe(false);
    expect(windowKnown(ticks(10, 10_000, () => 50), rule)).toBe(true);
  });

  it("keeps a jittery window going until its interval is tight, and ends it at the maximum regardless", () => {
    const jitter = (t: number): number => (t % 2 === 0 ? 55 : 45);
    expect(windowKnown(ticks(20, 10_000, jitter), rule)).toBe(false);
    // The interval narrows as 1/sqrt(n): ±2 % needs about 140 periods of this jitter; the maximum comes first.
    expect(windowKnown(ticks(39, 10_000, jitter), rule)).toBe(false);
    expect(windowKnown(ticks(40, 10_000, jitter), rule)).toBe(true);
  });

  it("waits for enough whole periods of a slow commit cadence", () => {
    // A 5 s checkpoint: at 15 s only three periods, so no interval yet even though each agrees.
    expect(windowKnown(ticks(15, 10_000, () => 50, 5), rule)).toBe(false);
    expect(windowKnown(ticks(20, 10_000, () => 50, 5), rule)).toBe(true);
  });

  it("ends at its minimum a jittery window whose product plainly falls behind, not one behind by a little", () => {
    const jitter = (t: number): number => (t % 2 === 0 ? 55 : 45);
    const offered = (rate: number, seconds: number): Tick[] => ticks(seconds, 10_000, jitter).map((k) => ({ ...k, inputEnd: rate * k.t }));
    // 10,000/s worked off of 12,000/s offered (83 %): its consumed rate is its figure, known at 10 s.
    expect(windowKnown(offered(12_000, 9), rule)).toBe(false);
    expect(windowKnown(offered(12_000, 10), rule)).toBe(true);
    // 10,000/s of 10,400/s (96 %): near the knee a regime can flip, so the window runs on.
    expect(windowKnown(offered(10_400, 20), rule)).toBe(false);
  });
});
