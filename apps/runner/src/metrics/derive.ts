/**
 * From a run's window of ticks to the page's numbers. The thresholds that decide a regime are
 * here and only here (the README quotes them).
 */
import type { MemoryInstrument } from "@bench/core";
import type { Regime, ResourceRow, ThroughputRow, Tick } from "../results/types.ts";

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
 * Backlog growth over the window ÷ records consumed in it. The backlog's trend is a
 * regression over every tick, not its two ends: consumers commit in steps, and one step
 * landing just before the last tick must not decide the regime.
 */
export function lagDrift(window: readonly Tick[]): number {
  const first = window[0];
  const last = window[window.length - 1];
  if (!first || !last || last === first) return 0;
  const consumed = last.consumed - first.consumed;
  const growth = slope(window.map((t) => t.t), window.map((t) => t.inputEnd - t.consumed)) * (last.t - first.t);
  if (consumed <= 0) return growth > 0 ? Number.POSITIVE_INFINITY : 0;
  return growth / consumed;
}

export function classifyRegime(offeredPerSec: number, consumedPerSec: number, drift: number): Regime {
  if (drift < -DRIFT_TOLERANCE && consumedPerSec > offeredPerSec * (1 + RATE_TOLERANCE)) return "draining";
  if (drift > DRIFT_TOLERANCE || consumedPerSec < offeredPerSec * (1 - RATE_TOLERANCE)) return "saturated";
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

/** The throughput/efficiency row; extraRecords = records written to other topics in the window. */
export function throughput(window: readonly Tick[], extraRecords: number): ThroughputRow {
  const first = window[0];
  const last = window[window.length - 1];
  if (!first || !last || last.t <= first.t) throw new Error("a window needs at least two ticks");
  // Rates are least-squares slopes over every tick, like the drift: products commit their
  // offsets in steps (every second, or at each checkpoint), and with end points a 20 s window
  // could lose or gain a whole step (5 %) by where the ticks fell. (Seen: quix keeping up at
  // 2000/s at 45 % CPU read as 1,910/s, "saturated".)
  const ts = window.map((t) => t.t);
  const offeredPerSec = slope(ts, window.map((t) => t.inputEnd));
  const consumed = last.consumed - first.consumed;
  const consumedPerSec = slope(ts, window.map((t) => t.consumed));
  const outputPerSec = slope(ts, window.map((t) => t.outputEnd));
  const drift = lagDrift(window);
  const { cpuAvg, memAvgMb } = resources(window);
  const cores = cpuAvg / 100;
  return {
    offeredPerSec,
    consumedPerSec,
    regime: classifyRegime(offeredPerSec, consumedPerSec, drift),
    lagDrift: drift,
    cpuAvg,
    rowsPerCore: cores > 0 ? consumedPerSec / cores : 0,
    rowsPerGb: memAvgMb > 0 ? consumedPerSec / (memAvgMb / 1024) : 0,
    cpuMicrosPerInference: consumedPerSec > 0 ? (cores * 1e6) / consumedPerSec : 0,
    outputPerSec,
    extraRecordsPerRecord: consumed > 0 ? extraRecords / consumed : 0,
  };
}
