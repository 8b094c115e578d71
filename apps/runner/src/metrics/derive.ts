/**
 * From a run's window of ticks to the page's numbers. The thresholds that decide a regime are
 * here and only here (the README quotes them).
 */
import type { MemoryInstrument } from "@bench/core";
import type { Regime, ResourceRow, ThroughputRow, Tick } from "../results/types.ts";
import { median } from "./stats.ts";

/** |lag drift| at or under this is a flat backlog. */
export const DRIFT_TOLERANCE = 0.02;
/** consumed/s within this fraction of offered/s counts as keeping up. */
export const RATE_TOLERANCE = 0.03;

/** Least-squares slope of y over x. */
export function slope(xs: readonly number[], ys: readonly number[]): number {
  const n = xs.length;
  if (n < 2) return 0;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    const dx = (xs[i] as number) - mx;
    num += dx * ((ys[i] as number) - my);
    den += dx * dx;
  }
  return den === 0 ? 0 : num / den;
}

/**
 * Median of the pairwise slopes (Theil–Sen): a commit that lands a second late moves one
 * point, and one point cannot move the median. Used for the committed offset, which steps
 * with each product's commit cadence. n is at most a few hundred ticks, so n² pairs is cheap.
 */
export function robustSlope(xs: readonly number[], ys: readonly number[]): number {
  const slopes: number[] = [];
  for (let i = 0; i < xs.length; i++) {
    for (let j = i + 1; j < xs.length; j++) {
      const dx = (xs[j] as number) - (xs[i] as number);
      if (dx !== 0) slopes.push(((ys[j] as number) - (ys[i] as number)) / dx);
    }
  }
  return median(slopes);
}

/**
 * Growth of a backlog over the window ÷ the records done in it. The backlog's trend is fitted
 * over every tick (least squares, or `fit`), not read from its two ends.
 */
function driftOf(window: readonly Tick[], backlog: (t: Tick) => number, done: number, fit = slope): number {
  const first = window[0];
  const last = window[window.length - 1];
  if (!first || !last || last === first) return 0;
  const growth = fit(window.map((t) => t.t), window.map(backlog)) * (last.t - first.t);
  if (done <= 0) return growth > 0 ? Number.POSITIVE_INFINITY : 0;
  return growth / done;
}

/**
 * Lag drift by the work: the backlog of records not yet republished (input end − output end)
 * ÷ records republished. Every record is republished (selectivity 1), so the output topic moves
 * with the work itself, whatever the product's commit cadence.
 */
export function lagDrift(window: readonly Tick[]): number {
  const first = window[0];
  const last = window[window.length - 1];
  if (!first || !last) return 0;
  return driftOf(window, (t) => t.inputEnd - t.outputEnd, last.outputEnd - first.outputEnd);
}

/**
 * How many ticks apart the committed offset usually moves: the median gap between ticks at
 * which it changed (1 for a product that commits every second, or an engine counter; 5 for a
 * 5 s checkpoint). A committed offset is a staircase with this period.
 */
export function commitPeriodTicks(window: readonly Tick[]): number {
  const changedAt: number[] = [];
  for (let i = 1; i < window.length; i++) if ((window[i] as Tick).consumed !== (window[i - 1] as Tick).consumed) changedAt.push(i);
  const gaps = changedAt.slice(1).map((at, i) => at - (changedAt[i] as number));
  if (gaps.length === 0) return 1;
  const sorted = gaps.sort((a, b) => a - b);
  return Math.max(1, sorted[sorted.length >> 1] as number);
}

/**
 * consumed/s from the committed offset: the median of its rate over every span of a whole number
 * of commit periods, a quarter of the window long (at least one period). A commit that lands late
 * shifts the staircase by one step from there on (derive.test.ts keeps such a series: one commit
 * a second late, every later one a step behind); that moves at most a third of the spans, which
 * cannot move the median, where a line fitted over the window read the shift as 5 % less
 * consumed and the run as saturated. A quarter-window span keeps the per-second jitter of a
 * counter out of the median. Too short a window falls back to Theil–Sen.
 */
export function consumedRate(window: readonly Tick[]): number {
  const period = commitPeriodTicks(window);
  const span = period * Math.max(1, Math.floor((window.length - 1) / 4 / period));
  const rates: number[] = [];
  for (let i = 0; i + span < window.length; i++) {
    const a = window[i] as Tick;
    const b = window[i + span] as Tick;
    if (b.t > a.t) rates.push((b.consumed - a.consumed) / (b.t - a.t));
  }
  return rates.length < 3 ? consumedSlope(window) : median(rates);
}

/**
 * The backlog of uncommitted records, as drift: how much more the committed offset trails the
 * input at the window's end than at its start, beyond one commit period of records, ÷ records
 * republished. Committed offsets move in steps, so a late commit shifts the trail by one period
 * (5 % of a 20 s window at 1 s commits) without the product falling behind; a trail that grows
 * by more than that is a product that republishes but stops committing, or commits ever later,
 * and must not pass as keeping up.
 */
export function commitDrift(window: readonly Tick[]): number {
  const first = window[0];
  const last = window[window.length - 1];
  if (!first || !last || last.t <= first.t) return 0;
  const done = last.outputEnd - first.outputEnd;
  const growth = robustSlope(window.map((t) => t.t), window.map((t) => t.inputEnd - t.consumed)) * (last.t - first.t);
  const perTick = (last.t - first.t) / (window.length - 1);
  const oneStep = ((last.inputEnd - first.inputEnd) / (last.t - first.t)) * commitPeriodTicks(window) * perTick;
  const beyondOneStep = Math.max(0, growth - oneStep);
  if (done <= 0) return beyondOneStep > 0 ? Number.POSITIVE_INFINITY : 0;
  return beyondOneStep / done;
}

/**
 * Regime from the work done: the output rate against the offered rate, the trend of the
 * unrepublished backlog, and the committed offsets' trail (beyond one commit step) as a bound.
 */
export function classifyRegime(offeredPerSec: number, workPerSec: number, drift: number, commitsDrift = 0): Regime {
  if (drift < -DRIFT_TOLERANCE && workPerSec > offeredPerSec * (1 + RATE_TOLERANCE)) return "draining";
  if (drift > DRIFT_TOLERANCE || workPerSec < offeredPerSec * (1 - RATE_TOLERANCE)) return "saturated";
  if (commitsDrift > DRIFT_TOLERANCE) return "saturated";
  return "keep-up";
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}

function worstInstrument(ticks: readonly Tick[]): MemoryInstrument {
  const kinds = new Set(ticks.map((t) => t.instrument));
  if (kinds.size === 1) return [...kinds][0] as MemoryInstrument;
  return "mixed";
}

export function resources(window: readonly Tick[]): ResourceRow {
  const cpu = window.map((t) => t.cpuPercent);
  const mem = window.map((t) => t.memMb);
  return {
    cpuAvg: cpu.reduce((a, b) => a + b, 0) / Math.max(1, cpu.length),
    cpuP95: percentile(cpu, 95),
    memAvgMb: mem.reduce((a, b) => a + b, 0) / Math.max(1, mem.length),
    memMaxMb: Math.max(0, ...mem),
    samples: window.length,
    instrument: worstInstrument(window),
  };
}

/**
 * extra rec/rec: records the run wrote to topics other than input and output (broker hops,
 * counted once after the drain) per record consumed.
 */
export function extraRecordsPerRecord(extraRecords: number, consumed: number): number {
  return consumed > 0 ? extraRecords / consumed : 0;
}

/**
 * consumed/s as the Theil–Sen slope of the committed offset over the window: a drain's, and that of
 * a window too short for consumedRate's spans. A drain's saturated product commits at the pace of
 * its own batches, and a staircase whose step period is not a whole number of ticks reads, over
 * spans of a few ticks, as whole steps per span: consumedRate's median then picks the commoner
 * count, not the mean (a batch every 1.5 ticks reads as one every two, three quarters of its rate).
 * Slopes between every pair of ticks interpolate between the counts, and a step that lands late at
 * one end still moves only the pairs through it.
 */
export function consumedSlope(window: readonly Tick[]): number {
  return robustSlope(window.map((t) => t.t), window.map((t) => t.consumed));
}

/**
 * The throughput/efficiency row from the window's ticks; extra rec/rec comes from the whole run
 * (extraRecordsPerRecord). `consumed` reads consumed/s from the committed offset: consumedRate for a
 * paced window, consumedSlope for a drain's.
 */
export function throughput(
  window: readonly Tick[],
  consumed: (window: readonly Tick[]) => number = consumedRate,
): Omit<ThroughputRow, "extraRecordsPerRecord"> {
  const first = window[0];
  const last = window[window.length - 1];
  if (!first || !last || last.t <= first.t) throw new Error("a window needs at least two ticks");
  // Rates are slopes over every tick, not the two ends: products commit in steps (every second,
  // or at each checkpoint), and one step landing late at an end moved a 20 s window by 5 %. The
  // committed offset is read per commit period (consumedRate): one late commit read a Python row keeping
  // up at 10,000/s (output 10,000/s, p50 17 ms) as 9,397/s, "saturated", under a fitted line.
  const ts = window.map((t) => t.t);
  const offeredPerSec = slope(ts, window.map((t) => t.inputEnd));
  const consumedPerSec = consumed(window);
  const outputPerSec = slope(ts, window.map((t) => t.outputEnd));
  const drift = lagDrift(window);
  const { cpuAvg, memAvgMb } = resources(window);
  const cores = cpuAvg / 100;
  return {
    offeredPerSec,
    consumedPerSec,
    regime: classifyRegime(offeredPerSec, outputPerSec, drift, commitDrift(window)),
    lagDrift: drift,
    cpuAvg,
    rowsPerCore: cores > 0 ? consumedPerSec / cores : 0,
    rowsPerGb: memAvgMb > 0 ? consumedPerSec / (memAvgMb / 1024) : 0,
    cpuMicrosPerInference: consumedPerSec > 0 ? (cores * 1e6) / consumedPerSec : 0,
    outputPerSec,
  };
}
