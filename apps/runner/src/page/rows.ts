/**
 * Which run stands for each product on the page. A run counts as a result only when it is
 * valid (status ok), settled, measured on a quiet machine and, for a swept product, a keep-up
 * run at its knee; otherwise the product's row is its last run, marked with why it does not count.
 */
import type { BenchResults, RunResult, Spread } from "../results/types.ts";
import { median } from "../metrics/stats.ts";
import { microsAtReference } from "./speed.ts";
import { sweepOf } from "../results/sweeps.ts";

export function productLabel(run: RunResult): string {
  const version = run.versions[run.product] ?? run.versions[run.family ?? Object.keys(run.versions).find(
    (key) => run.product.startsWith(`${key}-`),
  ) ?? run.product];
  return version ? `${run.product} ${version}` : run.product;
}

/** Valid, settled, quiet and keeping up: a figure a reader may act on. */
export function countsAsResult(run: RunResult): boolean {
  return run.status === "ok" && run.settled !== false && run.conditions?.noisy !== true && run.throughput?.regime === "keep-up";
}

/** Why a run with figures is not a result, for the mark beside its row; undefined when it is one. */
export function runMark(run: RunResult): string | undefined {
  if (run.status === "invalid") return `✗ INVALID — ${(run.reason ?? "").split("\n")[0]}`;
  if (run.conditions?.noisy) return `⚠ NOISY — ${noisyShort(run)}`;
  if (run.settled === false) return "⚠ UNSETTLED — the backlog had not settled when the window began";
  // A row is a sustainable point only at keep-up; past it, consumed/s is a ceiling, and a
  // draining window is catch-up CPU (a JVM row's first window can be one).
  if (run.throughput?.regime === "draining") return "⚠ DRAINING — a backlog was being worked off: catch-up CPU, not a steady state";
  if (run.throughput?.regime === "saturated") return "⚠ SATURATED — past capacity: consumed/s is the ceiling, the rate is not sustainable";
  return undefined;
}

/** The figures that made a run noisy, briefly (the results file keeps the sentences). */
export function noisyShort(run: RunResult): string {
  const c = run.conditions;
  if (!c) return "";
  const parts: string[] = [];
  for (const reason of c.noisyBecause) {
    const figure = /^(foreign load|steal) ([\d.]+%)/.exec(reason);
    parts.push(figure ? `${figure[1]} ${figure[2]}` : reason);
  }
  return parts.join(", ");
}

/** The runs at a product's row rate that count as results (for a swept product, its knee); the agreement table reads the same ones. */
export function resultRuns(runs: readonly RunResult[], rate: number): RunResult[] {
  return runs.filter((r) => r.settings.offeredRate === rate && countsAsResult(r));
}

export interface ProductRows {
  /** Runs with figures (ok or invalid), one per product. */
  measured: RunResult[];
  /** Failed or skipped products, one run each. */
  notRun: RunResult[];
}

/**
 * With rounds at a load share of the knee, a row's tables show its latest counting round there:
 * the run its ranked figure is taken from, not the search's step at the knee.
 */
function rankedRound(results: BenchResults, runs: readonly RunResult[]): RunResult | undefined {
  const share = results.rounds?.loadShare;
  if (share === undefined) return undefined;
  return runs.filter((r) => r.round !== undefined && r.loadShare === share && countsAsResult(r)).at(-1);
}

export function rowsOf(results: BenchResults): ProductRows {
  const byProduct = new Map<string, RunResult[]>();
  for (const run of results.runs) byProduct.set(run.product, [...(byProduct.get(run.product) ?? []), run]);
  const chosen: RunResult[] = [];
  for (const [product, runs] of byProduct) {
    const sweep = sweepOf(results, product);
    const atKnee = sweep?.knee !== undefined ? resultRuns(runs, sweep.knee) : [];
    const valid = runs.filter(countsAsResult);
    const withFigures = runs.filter((r) => r.throughput !== undefined || r.status === "invalid");
    const pick = rankedRound(results, runs) ?? atKnee.at(-1) ?? (sweep ? undefined : valid.at(-1)) ?? withFigures.at(-1) ?? runs.at(-1);
    if (pick) chosen.push(pick);
  }
  return {
    measured: chosen.filter((r) => r.status === "ok" || r.status === "invalid"),
    notRun: chosen.filter((r) => r.status === "failed" || r.status === "skipped"),
  };
}

const minMedianMax = (xs: number[]): { min: number; median: number; max: number } => ({
  min: Math.min(...xs),
  median: median(xs),
  max: Math.max(...xs),
});

/** min / median / max over the runs of `row`'s product at its rate that count as results. */
export function spreadOf(results: BenchResults, row: RunResult): Spread | undefined {
  const runs = resultRuns(results.runs.filter((r) => r.product === row.product), row.settings.offeredRate);
  if (runs.length === 0) return undefined;
  const atReference = runs.map(microsAtReference);
  return {
    runs: runs.length,
    rowsPerCore: minMedianMax(runs.map((r) => r.throughput!.rowsPerCore)),
    cpuMicrosPerInference: minMedianMax(runs.map((r) => r.throughput!.cpuMicrosPerInference)),
    ...(atReference.every((x) => x !== undefined) ? { cpuMicrosAtReference: minMedianMax(atReference as number[]) } : {}),
  };
}
