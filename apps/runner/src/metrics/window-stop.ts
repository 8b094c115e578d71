/**
 * A window that ends when its figure is known. The figure is µs CPU per record; it is estimated
 * over whole commit periods (a committed offset moves in steps, so a part-period would count a
 * step's records against the wrong seconds), one sample per period, and the window may end once
 * the 95% interval of their mean is within ±`relHalfWidth` of it, after `minSec`, and must end
 * at `maxSec` whatever it says. A steady product on a quiet machine ends early; a jittery one,
 * or a slow commit cadence, gets the longer window it needs.
 */
import type { Tick } from "../results/types.ts";
import { commitPeriodTicks, throughput } from "./derive.ts";
import { t975 } from "./stats.ts";

export interface WindowStopRule {
  minSec: number;
  maxSec: number;
  /** The 95% interval's half-width as a share of the mean, e.g. 0.02 for ±2 %. */
  relHalfWidth: number;
}

/**
 * ±2 % within 10–15 s: ten 1 s commit periods at least. At most 15 s: replayed over the 204
 * committed paced and sweep windows of 20 s or more (both CPU vendors alike), stopping at 15 s moved µs per record from the first 20 s' figure by a median of
 * 1.4 % (90th percentile 4.3 %, over 5 % in 16) and flipped the regime of 16 (8 %); a 12 s cap moved
 * it by a median of 2.0 % (90th percentile 6.1 %, over 5 % in 33) and flipped 30. The ±2 %
 * interval almost never closes sooner (windows averaged 19.2 s under a 20 s cap), so the cap is
 * a window's length, and each second off it is a second off every paced step.
 */
export const WINDOW_STOP_RULE: WindowStopRule = { minSec: 10, maxSec: 15, relHalfWidth: 0.02 };

/**
 * A window in which the product plainly falls behind (its output grows at under this share of
 * what is offered) is known at minSec: such a step's figure is the rate it consumed, which sends
 * the search lower, not its µs per record, which no knee uses. A step behind by less (near the
 * knee, where a regime can flip) runs its whole window.
 */
export const PLAINLY_BEHIND_SHARE = 0.94;

/** Fewest whole periods (in which the committed offset moved) an interval is computed from. */
export const MIN_PERIODS = 4;

export interface MicrosEstimate {
  /** Mean µs CPU per record over the periods. */
  micros: number;
  /** 95% half-width as a share of the mean (Infinity when it cannot be computed). */
  relHalfWidth: number;
  periods: number;
}

/** µs per record in each whole commit period of the window: the CPU spent in it ÷ the records its commits moved. */
export function microsPerPeriod(window: readonly Tick[]): number[] {
  const period = commitPeriodTicks(window);
  const samples: number[] = [];
  for (let i = 0; i + period < window.length; i += period) {
    const a = window[i] as Tick;
    const b = window[i + period] as Tick;
    const records = b.consumed - a.consumed;
    // A tick's CPU is its preceding second's: the period's seconds are ticks i+1..i+period.
    let cpuSeconds = 0;
    for (let k = i + 1; k <= i + period; k++) cpuSeconds += ((window[k] as Tick).cpuPercent / 100) * ((window[k] as Tick).t - (window[k - 1] as Tick).t);
    if (records > 0) samples.push((cpuSeconds * 1e6) / records);
  }
  return samples;
}

export function microsEstimate(window: readonly Tick[]): MicrosEstimate {
  const xs = microsPerPeriod(window);
  const n = xs.length;
  const mean = n > 0 ? xs.reduce((a, b) => a + b, 0) / n : 0;
  if (n < MIN_PERIODS || mean <= 0) return { micros: mean, relHalfWidth: Number.POSITIVE_INFINITY, periods: n };
  const variance = xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1);
  return { micros: mean, relHalfWidth: (t975(n - 1) * Math.sqrt(variance / n)) / mean, periods: n };
}

/** Whether the window may end now: its seconds so far and what its figure's interval says. */
export function windowKnown(window: readonly Tick[], rule: WindowStopRule): boolean {
  const first = window[0];
  const last = window[window.length - 1];
  const seconds = first && last ? last.t - first.t : 0;
  if (seconds >= rule.maxSec) return true;
  if (seconds < rule.minSec) return false;
  return plainlyBehind(window) || microsEstimate(window).relHalfWidth <= rule.relHalfWidth;
}

function plainlyBehind(window: readonly Tick[]): boolean {
  const t = throughput(window);
  return t.regime === "saturated" && t.outputPerSec < t.offeredPerSec * PLAINLY_BEHIND_SHARE;
}
