/**
 * How sure a figure is: a median with a 95 % interval over independent rounds, and a three-way
 * verdict on two rows' ratio paired by round. Pure.
 *
 * A row's figure is µs CPU per inference, a cost: it is positive and its noise is multiplicative
 * (a slower minute scales every record's cost), so intervals are taken on log values and reported
 * as ratios. For a handful of rounds a t-interval on the logs (Kalibera and Jones, "Rigorous
 * benchmarking in reasonable time"), its variance moderated against the other rows' when a sitting's
 * rows are taken together (moderation.ts); from BOOTSTRAP_FROM rounds on, a percentile bootstrap of
 * the median, which assumes no shape (criterion.rs, pyperf). The bootstrap's draws are seeded, so
 * the same results render the same page.
 */
import { mulberry32 } from "@bench/core";
import { median, t975 } from "../metrics/stats.ts";
import { moderated, priorOf, type Spread } from "./moderation.ts";

/** From this many values on, the interval is a bootstrap's; below it, a t-interval on the logs. */
export const BOOTSTRAP_FROM = 10;
/** Resamples of a bootstrap: its percentiles move by well under 1 % of the interval between seeds. */
export const BOOTSTRAP_RESAMPLES = 4000;
const BOOTSTRAP_SEED = 0x5eed;

/** Two rows are the SAME when their ratio's interval lies inside 1 ± this share, DIFFERENT when wholly outside it. */
export const SAME_MARGIN = 0.05;

export type IntervalMethod = "t on logs" | "moderated t on logs" | "bootstrap" | "one value" | "unpaired";

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

/** The sample variance of the logs of two or more positive `values`, on n − 1 degrees of freedom. */
export function logSpread(values: readonly number[]): Spread {
  const logs = values.map(Math.log);
  const m = mean(logs);
  return { variance: logs.reduce((a, b) => a + (b - m) ** 2, 0) / (logs.length - 1), df: logs.length - 1 };
}

/** The t-interval of the mean of `values`' logs with the variance `spread`, back on the ratio scale. */
function tOnLogs(values: readonly number[], spread: Spread): { low: number; high: number } {
  const half = (t975(spread.df) * Math.sqrt(spread.variance)) / Math.sqrt(values.length);
  const m = mean(values.map(Math.log));
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
 * mean, with the values' own variance or, given one, a `moderatedSpread` (moderation.ts); its ends
 * are widened to take in the median, so the figure never lies outside its own interval.
 */
export function medianInterval(values: readonly number[], moderatedSpread?: Spread): Interval | undefined {
  if (values.length === 0) return undefined;
  if (values.some((v) => !(v > 0))) throw new RangeError(`an interval on log values needs positive values (got ${values.join(", ")})`);
  const m = median(values);
  if (values.length === 1) return { median: m, low: m, high: m, n: 1, method: "one value" };
  if (values.length >= BOOTSTRAP_FROM) return { median: m, ...bootstrapMedian(values), n: values.length, method: "bootstrap" };
  const t = tOnLogs(values, moderatedSpread ?? logSpread(values));
  const method = moderatedSpread === undefined ? "t on logs" : "moderated t on logs";
  return { median: m, low: Math.min(t.low, m), high: Math.max(t.high, m), n: values.length, method };
}

/**
 * Each group's median and 95 % interval, the groups taken together: a group's t-interval reads its
 * variance against the prior fitted to every group's of two values or more (moderation.ts), so one
 * of three rounds that happen to agree is not read as surer than the sitting allows, nor one that
 * happen not to as less sure. Fewer than MIN_GROUPS_FOR_PRIOR such groups: each its own t-interval.
 */
export function medianIntervals<K>(groups: ReadonlyMap<K, readonly number[]>): Map<K, Interval> {
  const spreads = new Map<K, Spread>();
  for (const [key, values] of groups) if (values.length >= 2) spreads.set(key, logSpread(values));
  const prior = priorOf([...spreads.values()]);
  const pooledDf = [...spreads.values()].reduce((a, s) => a + s.df, 0);
  const out = new Map<K, Interval>();
  for (const [key, values] of groups) {
    const own = spreads.get(key);
    const interval = medianInterval(values, prior === undefined || own === undefined ? undefined : moderated(own, prior, pooledDf));
    if (interval !== undefined) out.set(key, interval);
  }
  return out;
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
 * A sitting's standings take every pair's ratios together instead (medianIntervals, then ratioVerdict).
 */
export function compareRows(
  a: ReadonlyMap<number, number>, b: ReadonlyMap<number, number>, margin = SAME_MARGIN, unpaired?: { a?: Interval; b?: Interval },
): RatioVerdict {
  return ratioVerdict(medianInterval(pairedRatios(a, b)), margin, unpaired);
}

/** a ÷ b in every round both rows counted. */
export function pairedRatios(a: ReadonlyMap<number, number>, b: ReadonlyMap<number, number>): number[] {
  return [...a].filter(([round]) => b.has(round)).map(([round, x]) => x / (b.get(round) as number));
}

/**
 * The verdict on a ÷ b from `paired`, its interval over the rounds both counted (compareRows), with
 * the rows' own intervals when fewer than two are paired.
 */
export function ratioVerdict(paired: Interval | undefined, margin = SAME_MARGIN, unpaired?: { a?: Interval; b?: Interval }): RatioVerdict {
  if (paired !== undefined && paired.n >= 2) return { ratio: paired, verdict: verdictOf(paired, margin) };
  const own = unpaired?.a !== undefined && unpaired.b !== undefined && unpaired.a.n >= 2 && unpaired.b.n >= 2 ? unpaired : undefined;
  if (own === undefined) return { ratio: paired, verdict: "UNKNOWN" };
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
