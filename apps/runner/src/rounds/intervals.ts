/**
 * How sure a figure is: a median with a 95 % interval over independent rounds, and a three-way
 * verdict on two rows' ratio paired by round. Pure.
 *
 * A row's figure is µs CPU per inference, a cost: it is positive and its noise is multiplicative
 * (a slower minute scales every record's cost), so intervals are taken on log values and reported
 * as ratios. For a handful of rounds a t-interval on the logs (Kalibera and Jones, "Rigorous
 * benchmarking in reasonable time"); from BOOTSTRAP_FROM rounds on, a percentile bootstrap of the
 * median, which assumes no shape (criterion.rs, pyperf). The bootstrap's draws are seeded, so the
 * same results render the same page.
 */
import { mulberry32 } from "@bench/core";
import { median } from "../metrics/stats.ts";

/** From this many values on, the interval is a bootstrap's; below it, a t-interval on the logs. */
export const BOOTSTRAP_FROM = 10;
/** Resamples of a bootstrap: its percentiles move by well under 1 % of the interval between seeds. */
export const BOOTSTRAP_RESAMPLES = 4000;
const BOOTSTRAP_SEED = 0x5eed;

/** Two rows are the SAME when their ratio's interval lies inside 1 ± this share, DIFFERENT when wholly outside it. */
export const SAME_MARGIN = 0.05;

/** Student's t at 0.975 for 1–30 degrees of freedom (a two-sided 95 % interval). */
const T_975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086,
  2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

/** Student's t quantile at 0.975 for `df` degrees of freedom (past 30, the Cornish–Fisher expansion around the normal's 1.96). */
export function t975(df: number): number {
  if (!(df >= 1)) throw new RangeError(`t975 needs at least one degree of freedom (got ${df})`);
  const tabled = T_975[Math.floor(df) - 1];
  if (tabled !== undefined) return tabled;
  const z = 1.959964;
  return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2);
}

export type IntervalMethod = "t on logs" | "bootstrap" | "one value" | "unpaired";

export interface Interval {
  /** The median of the values: the figure. */
  median: number;
  /** The 95 % interval's ends (equal to the median when there is one value). */
  low: number;
  high: number;
  n: number;
  method: IntervalMethod;
}

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

function sampleSd(xs: readonly number[]): number {
  const m = mean(xs);
  return Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1));
}

/** The t-interval of the mean of `logs`, back on the ratio scale. */
function tOnLogs(logs: readonly number[]): { low: number; high: number } {
  const half = (t975(logs.length - 1) * sampleSd(logs)) / Math.sqrt(logs.length);
  const m = mean(logs);
  return { low: Math.exp(m - half), high: Math.exp(m + half) };
}

/** The 2.5th and 97.5th percentiles of the median over resamples of `values`. */
function bootstrapMedian(values: readonly number[]): { low: number; high: number } {
  const rng = mulberry32(BOOTSTRAP_SEED);
  const medians: number[] = [];
  const draw: number[] = new Array(values.length);
  for (let b = 0; b < BOOTSTRAP_RESAMPLES; b++) {
    for (let i = 0; i < values.length; i++) draw[i] = values[Math.floor(rng() * values.length)] as number;
    medians.push(median(draw));
  }
  medians.sort((a, b) => a - b);
  const at = (q: number): number => medians[Math.min(medians.length - 1, Math.floor(q * medians.length))] as number;
  return { low: at(0.025), high: at(0.975) };
}

/**
 * The median of positive `values` and its 95 % interval. The t-interval is around the geometric
 * mean; its ends are widened to take in the median, so the figure never lies outside its own interval.
 */
export function medianInterval(values: readonly number[]): Interval | undefined {
  if (values.length === 0) return undefined;
  if (values.some((v) => !(v > 0))) throw new RangeError(`an interval on log values needs positive values (got ${values.join(", ")})`);
  const m = median(values);
  if (values.length === 1) return { median: m, low: m, high: m, n: 1, method: "one value" };
  if (values.length >= BOOTSTRAP_FROM) return { median: m, ...bootstrapMedian(values), n: values.length, method: "bootstrap" };
  const t = tOnLogs(values.map(Math.log));
  return { median: m, low: Math.min(t.low, m), high: Math.max(t.high, m), n: values.length, method: "t on logs" };
}

export type Verdict = "SAME" | "DIFFERENT" | "UNKNOWN";

export interface RatioVerdict {
  /** a ÷ b over the rounds both ran (the median of the per-round ratios) and its 95 % interval. */
  ratio: Interval | undefined;
  verdict: Verdict;
}

/**
 * Row a against row b, paired by round: each round's ratio a ÷ b cancels what that round's minutes
 * did to both (RMIT: every row once per round, in a fresh random order). DIFFERENT when the
 * interval lies wholly outside 1 ± SAME_MARGIN, SAME when wholly inside, else UNKNOWN (Chromium
 * Pinpoint's three answers). With fewer than two paired rounds (a row whose counting rounds fell
 * where the other's did not), the rows' own intervals, `unpaired`, answer instead: DIFFERENT only
 * when the quotient of their ends lies wholly outside 1 ± the margin (two 95 % intervals that far
 * apart are a stricter test than one interval of the ratio); never SAME, which needs the pairing.
 */
export function compareRows(
  a: ReadonlyMap<number, number>, b: ReadonlyMap<number, number>, margin = SAME_MARGIN, unpaired?: { a?: Interval; b?: Interval },
): RatioVerdict {
  const ratios = [...a].filter(([round]) => b.has(round)).map(([round, x]) => x / (b.get(round) as number));
  if (ratios.length >= 2) {
    const ratio = medianInterval(ratios) as Interval;
    return { ratio, verdict: verdictOf(ratio, margin) };
  }
  const own = unpaired?.a !== undefined && unpaired.b !== undefined && unpaired.a.n >= 2 && unpaired.b.n >= 2 ? unpaired : undefined;
  if (own === undefined) return { ratio: medianInterval(ratios), verdict: "UNKNOWN" };
  const [x, y] = [own.a as Interval, own.b as Interval];
  const ratio: Interval = { median: x.median / y.median, low: x.low / y.high, high: x.high / y.low, n: Math.min(x.n, y.n), method: "unpaired" };
  return { ratio, verdict: verdictOf(ratio, margin) === "DIFFERENT" ? "DIFFERENT" : "UNKNOWN" };
}

export function verdictOf(ratio: Pick<Interval, "low" | "high">, margin = SAME_MARGIN): Verdict {
  if (ratio.low > 1 + margin || ratio.high < 1 - margin) return "DIFFERENT";
  if (ratio.low >= 1 - margin && ratio.high <= 1 + margin) return "SAME";
  return "UNKNOWN";
}

/** Two intervals share a value. */
export const overlaps = (a: Pick<Interval, "low" | "high">, b: Pick<Interval, "low" | "high">): boolean => a.low <= b.high && b.low <= a.high;

/** Half the interval's width over the median: "±6 %". */
export const halfWidth = (i: Interval): number => (i.high - i.low) / 2 / i.median;
