/**
 * How far a search repeats itself on this machine: the steps one search ran more than once at one
 * rate (a knee and its confirm, a confirm's second repeat, a step run again), each paired with the
 * next at that rate. Each pair reads the same product at the same rate minutes apart, so its spread
 * is the floor under any agreement between two searches run on the same machine.
 */
import type { SweepRecord, SweepStep } from "../results/types.ts";
import { median } from "../metrics/stats.ts";
import { countsAsRun } from "../sweep/machine-speed.ts";

export interface RepeatPair {
  product: string;
  method: "sweep" | "fast";
  rate: number;
  first: SweepStep;
  second: SweepStep;
}

export interface RepeatSummary {
  /** Pairs of steps at one rate in one search, each with the next at that rate. */
  pairs: number;
  /** Pairs where one step kept up and the other saturated. */
  verdictDiffers: number;
  /** Pairs where both kept up with a µs figure. */
  costPairs: number;
  /** Over those, the dearer step's µs per inference ÷ the cheaper's, less 1: its median and largest. */
  costSpreadMedian?: number;
  costSpreadMax?: number;
  /** Cost pairs whose spread is over the bound the summary was asked about. */
  costOverBound: number;
  /**
   * The median spread of the cost pairs that have speed readings, with each step's µs scaled by its speed index (as the page's µs at the reference speed).
   */
  costSpreadAtSpeedMedian?: number;
}

/**
 * A step that read the product at its rate: a paced or swept run that kept up or saturated with
 * the offered load delivered, and that counts as a run to the searches (countsAsRun: quiet, not
 * marked slower than usual, not failed).
 */
const readsTheProduct = (s: SweepStep): boolean =>
  s.purpose !== "drain" && (s.regime === "keep-up" || s.regime === "saturated") && !s.gendataShort && countsAsRun(s);

/** In each search, every step paired with the next one at its rate, in the order they ran. */
export function repeatPairs(sweeps: readonly SweepRecord[]): RepeatPair[] {
  return sweeps.flatMap((sweep) => {
    const byRate = new Map<number, SweepStep[]>();
    for (const step of sweep.steps.filter(readsTheProduct)) byRate.set(step.rate, [...(byRate.get(step.rate) ?? []), step]);
    return [...byRate].flatMap(([rate, steps]) =>
      steps.slice(1).map((second, i) => ({ product: sweep.product, method: sweep.method ?? "sweep", rate, first: steps[i] as SweepStep, second })),
    );
  });
}

/** The dearer of two µs figures ÷ the cheaper, less 1. */
export const costSpread = (a: number, b: number): number => Math.max(a, b) / Math.min(a, b) - 1;

const keptUpCost = (s: SweepStep): number | undefined =>
  s.regime === "keep-up" && s.cpuMicrosPerInference !== undefined && s.cpuMicrosPerInference > 0 ? s.cpuMicrosPerInference : undefined;

/** µs per inference × the step's speed index: its cost with the machine's speed taken out (up to a constant). */
const costAtSpeed = (s: SweepStep): number | undefined => {
  const cost = keptUpCost(s);
  return cost !== undefined && s.speedIndex !== undefined && s.speedIndex > 0 ? cost * s.speedIndex : undefined;
};

/** The spreads of the pairs where `cost` gives both steps a figure. */
function spreadsOf(pairs: readonly RepeatPair[], cost: (s: SweepStep) => number | undefined): number[] {
  return pairs.flatMap((p) => {
    const a = cost(p.first);
    const b = cost(p.second);
    return a !== undefined && b !== undefined ? [costSpread(a, b)] : [];
  });
}

export function summariseRepeats(pairs: readonly RepeatPair[], bound: number): RepeatSummary {
  const spreads = spreadsOf(pairs, keptUpCost);
  const atSpeed = spreadsOf(pairs, costAtSpeed);
  const summary: RepeatSummary = {
    pairs: pairs.length,
    verdictDiffers: pairs.filter((p) => p.first.regime !== p.second.regime).length,
    costPairs: spreads.length,
    costOverBound: spreads.filter((s) => s > bound).length,
  };
  if (spreads.length > 0) {
    summary.costSpreadMedian = median(spreads);
    summary.costSpreadMax = Math.max(...spreads);
  }
  if (atSpeed.length > 0) summary.costSpreadAtSpeedMedian = median(atSpeed);
  return summary;
}

export const percent = (fraction: number): string => `${(fraction * 100).toFixed(1)}%`;
const pairsOf = (n: number): string => `${n} ${n === 1 ? "pair" : "pairs"}`;

/** One sentence: how far a search's repeats agreed, against the bound two searches are held to. */
export function repeatSentence(summary: RepeatSummary, bound: number): string {
  if (summary.pairs === 0) return "ran no step twice at one rate";
  const verdict = `ran ${pairsOf(summary.pairs)} of steps at one rate; one kept up and the other saturated in ${summary.verdictDiffers}`;
  if (summary.costPairs === 0 || summary.costSpreadMedian === undefined || summary.costSpreadMax === undefined) return `${verdict}; no pair kept up with a ` +
    `µs figure on both`;
  const atSpeed = summary.costSpreadAtSpeedMedian !== undefined
    ? ` (with each step's speed index taken out, ${percent(summary.costSpreadAtSpeedMedian)} in the median pair)`
    : "";
  return `${verdict}; of the ${summary.costPairs} that both kept up, µs per inference differed by ${percent(summary.costSpreadMedian)} in the median pair` +
    `${atSpeed} and ${percent(summary.costSpreadMax)} at the most, by more than ±${bound * 100}% in ${summary.costOverBound}`;
}

/** `bench repeats`: per results file, then over them all, how far each kind of search repeated itself. */
export function repeatReport(files: readonly { label: string; sweeps: readonly SweepRecord[] }[], bound: number): string[] {
  const lines = (label: string, pairs: readonly RepeatPair[]): string[] =>
    (["fast", "sweep"] as const).flatMap((method) => {
      const own = pairs.filter((p) => p.method === method);
      return own.length > 0 ? [`${label} (${method}): ${repeatSentence(summariseRepeats(own, bound), bound)}`] : [];
    });
  const perFile = files.map((f) => ({ label: f.label, pairs: repeatPairs(f.sweeps) }));
  const all = perFile.flatMap((f) => f.pairs);
  return [
    ...perFile.flatMap((f) => lines(f.label, f.pairs)),
    ...lines(`all ${files.length} files`, all),
    `all ${files.length} files (both): ${repeatSentence(summariseRepeats(all, bound), bound)}`,
  ];
}
