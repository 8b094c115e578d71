/**
 * What the HTML page's charts plot, taken from the results alone (pure), and how many marks
 * each chart must draw: the browser test holds the drawn page to these counts.
 */
import { PROFILE_CATEGORIES } from "@bench/core";
import type { BenchResults, RunResult } from "../../results/types.ts";
import { rowProfileOf } from "../breakdown.ts";
import { productLabel, rowsOf } from "../render.ts";
import { countsAsResult } from "../rows.ts";
import { hasRounds, roundCells } from "../rounds.ts";
import type { Interval } from "../../rounds/intervals.ts";
import { sweepOf } from "../../results/sweeps.ts";

export interface RunPoint {
  /** Index of the run in results.runs: ties a mark back to its run. */
  run: number;
  purpose: string;
  /** The rate asked for. */
  asked: number;
  offered: number;
  consumed: number;
  /** keep-up / saturated / draining, or "invalid" when the run did not do the work. */
  regime: string;
  cpu: number;
  rowsPerCore: number;
  usPerInference: number;
  p50?: number;
  p99?: number;
  noisy: boolean;
}

export interface ProductSeries {
  product: string;
  label: string;
  knee?: number;
  ceiling?: number;
  confirmed: boolean;
  points: RunPoint[];
}

export interface KneePoint {
  product: string;
  label: string;
  run: number;
  rate: number;
  rowsPerCore: number;
  usPerInference: number;
}

export interface Range { min: number; median: number; max: number }

export interface KneeSpread { product: string; label: string; runs: number; rowsPerCore: Range; usPerInference: Range }

export interface HarnessBar { product: string; component: "sampler" | "runner" | "gendata" | "broker"; cpu: number }

export interface SpeedPoint { product: string; run: number; when: "before" | "after"; speedIndex: number; noisy: boolean }

/** One category's share of a row's CPU in its profile (the page's CPU breakdown table). */
export interface BreakdownBar { product: string; category: string; share: number; microsPerRecord: number }

export interface ChartData {
  products: ProductSeries[];
  atKnee: KneePoint[];
  spreads: KneeSpread[];
  harness: HarnessBar[];
  speed: SpeedPoint[];
  breakdown: BreakdownBar[];
}

function range(values: number[]): Range {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  const median = sorted.length % 2 === 1 ? sorted[Math.floor(mid)]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { min: sorted[0]!, median, max: sorted[sorted.length - 1]! };
}

function point(run: RunResult, index: number): RunPoint | undefined {
  const t = run.throughput;
  if (!t || (run.status !== "ok" && run.status !== "invalid")) return undefined;
  const latency = t.regime === "keep-up" ? run.delivery?.latencyMs : undefined;
  return {
    run: index,
    purpose: run.sweepPurpose ?? "single",
    asked: run.settings.offeredRate,
    offered: t.offeredPerSec,
    consumed: t.consumedPerSec,
    regime: run.status === "invalid" ? "invalid" : t.regime,
    cpu: t.cpuAvg,
    rowsPerCore: t.rowsPerCore,
    usPerInference: t.cpuMicrosPerInference,
    ...(latency ? { p50: latency.p50, p99: latency.p99 } : {}),
    noisy: run.conditions?.noisy ?? false,
  };
}

/**
 * The runs that price a product at its knee: its counting rounds, else every run at the knee rate that counts as a result (as the page's spread), or the page's
 * one row when not swept.
 */
function kneeRuns(results: BenchResults, product: string, row: RunResult | undefined): number[] {
  if (hasRounds(results)) return results.runs.flatMap((r, i) => (r.product === product && r.round !== undefined && countsAsResult(r) ? [i] : []));
  const sweep = sweepOf(results, product);
  if (sweep) {
    if (sweep.knee === undefined) return [];
    return results.runs.flatMap((r, i) => (r.product === product && r.settings.offeredRate === sweep.knee && countsAsResult(r) ? [i] : []));
  }
  const i = row ? results.runs.indexOf(row) : -1;
  return i >= 0 && row !== undefined && countsAsResult(row) ? [i] : [];
}

export function chartData(results: BenchResults): ChartData {
  const { measured, notRun } = rowsOf(results);
  const products: ProductSeries[] = [];
  const atKnee: KneePoint[] = [];
  const spreads: KneeSpread[] = [];
  const harness: HarnessBar[] = [];
  // A product whose row is invalid still has its runs drawn (marked invalid); one that never ran has none.
  for (const row of [...measured, ...notRun]) {
    const product = row.product;
    const label = productLabel(row);
    const sweep = sweepOf(results, product);
    const points = results.runs.flatMap((r, i) => (r.product === product ? [point(r, i)].filter((p): p is RunPoint => p !== undefined) : []));
    if (points.length === 0) continue;
    products.push({
      product,
      label,
      ...(sweep?.knee !== undefined ? { knee: sweep.knee } : {}),
      ...(sweep?.ceiling !== undefined ? { ceiling: sweep.ceiling } : {}),
      confirmed: sweep?.confirmed ?? false,
      points,
    });
    const knee = kneeRuns(results, product, row).map((i): KneePoint => {
      const t = results.runs[i]!.throughput!;
      return { product, label, run: i, rate: results.runs[i]!.settings.offeredRate, rowsPerCore: t.rowsPerCore, usPerInference: t.cpuMicrosPerInference };
    });
    atKnee.push(...knee);
    if (knee.length > 0) {
      spreads.push(
        { product, label, runs: knee.length, rowsPerCore: range(knee.map((k) => k.rowsPerCore)), usPerInference: range(knee.map((k) => k.usPerInference)) },
      );
    }
    const costs = results.runs.filter((r) => r.product === product && r.status === "ok" && r.harness).map((r) => r.harness!);
    if (costs.length > 0) {
      const avg = (f: (c: (typeof costs)[number]) => number): number => costs.reduce((a, c) => a + f(c), 0) / costs.length;
      harness.push(
        { product, component: "sampler", cpu: avg((c) => c.samplerCpuPercent) },
        // The runner's own figure includes the sampler: the bar shows the rest of it.
        { product, component: "runner", cpu: avg((c) => c.runnerCpuPercent - c.samplerCpuPercent) },
        { product, component: "gendata", cpu: avg((c) => c.gendataCpuPercent) },
        { product, component: "broker", cpu: avg((c) => c.brokerCpuPercent) },
      );
    }
  }
  const speed = results.runs.flatMap((r, i): SpeedPoint[] =>
    r.conditions
      ? [
          { product: r.product, run: i, when: "before", speedIndex: r.conditions.speedIndexBefore, noisy: r.conditions.noisy },
          { product: r.product, run: i, when: "after", speedIndex: r.conditions.speedIndexAfter, noisy: r.conditions.noisy },
        ]
      : [],
  );
  // A bar segment for every category with CPU in it, "other" included: never hidden; a row whose profiling changed it has no bar.
  const breakdown = measured.flatMap((row): BreakdownBar[] => {
    const profile = rowProfileOf(results, row);
    return profile
      ? PROFILE_CATEGORIES.filter((c) => profile.shares[c] > 0).map(
        (c) => ({ product: row.product, category: c, share: profile.shares[c] * 100, microsPerRecord: profile.microsPerRecord[c] }),
      )
      : [];
  });
  return { products, atKnee, spreads: hasRounds(results) ? roundSpreads(results, spreads) : spreads, harness, speed, breakdown };
}

/**
 * With rounds, each row's bar is its figure's 95 % interval (tick: the median) and the rows go in
 * the ranking's order, so the chart reads as the ranking with error bars.
 */
function roundSpreads(results: BenchResults, spreads: KneeSpread[]): KneeSpread[] {
  const cells = roundCells(results);
  const order = [...cells.keys()];
  return spreads
    .filter((s) => cells.has(s.product))
    .map((s) => {
      const i = (cells.get(s.product) as { interval: Interval }).interval;
      const perCore = (us: number): number => 1e6 / us;
      return {
        ...s,
        usPerInference: { min: i.low, median: i.median, max: i.high },
        rowsPerCore: { min: perCore(i.high), median: perCore(i.median), max: perCore(i.low) },
      };
    })
    .sort((a, b) => order.indexOf(a.product) - order.indexOf(b.product));
}

export interface ChartSpec {
  id: string;
  title: string;
  mark: "dot" | "bar";
  expected: number;
  /** Shown instead of a chart that has nothing to draw. */
  empty: string;
}

/** Runs at more than one offered rate: a sweep, or repeats at several rates. */
export const hasSeveralRates = (p: ProductSeries): boolean => new Set(p.points.map((pt) => pt.asked)).size > 1;

/** Every chart the page draws, in order, with the number of marks it must show. */
export function chartSpecs(data: ChartData): ChartSpec[] {
  const specs: ChartSpec[] = [];
  // A product's own charts only where it ran at more than one rate: one dot says nothing a table does not.
  for (const p of data.products.filter(hasSeveralRates)) {
    specs.push(
      { id: `sweep-${p.product}`, title: "consumed against offered rate", mark: "dot", expected: p.points.length, empty: "no measured runs" },
      { id: `cpu-${p.product}`, title: "CPU against offered rate", mark: "dot", expected: p.points.length, empty: "no measured runs" },
      {
        id: `latency-${p.product}`,
        title: "latency p50 / p99 (keep-up runs)",
        mark: "dot",
        expected: 2 * p.points.filter((x) => x.p50 !== undefined).length,
        empty: "no keep-up run with a latency measurement",
      },
    );
  }
  specs.push(
    { id: "knee-rows-per-core", title: "rows/s per core at the knee", mark: "dot", expected: data.atKnee.length, empty: "no product kept up at a knee" },
    {
      id: "knee-us-per-inference",
      title: "µs CPU per inference at the knee (bar: the 95 % interval over the rounds, or the runs' range; tick: median; dots: runs)",
      mark: "dot",
      expected: data.atKnee.length,
      empty: "no product kept up at a knee",
    },
    { id: "harness", title: "harness cost during the windows", mark: "bar", expected: data.harness.length, empty: "no harness cost recorded" },
    {
      id: "speed-index",
      title: "machine speed index before and after each run",
      mark: "dot",
      expected: data.speed.length,
      empty: "these results hold no speed index (results files before schema 2 do not record one)",
    },
    {
      id: "cpu-breakdown",
      title: "where the CPU goes (share of the product tree's CPU, profiled at the row's rate)",
      mark: "bar",
      expected: data.breakdown.length,
      empty: "no row was profiled (--profile; on for a sweep's confirm runs)",
    },
  );
  return specs;
}
