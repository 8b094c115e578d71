/**
 * Rows borrow strength from each other for their spread: the moderated t of Smyth ("Linear models
 * and empirical Bayes methods for assessing differential expression in microarray experiments",
 * 2004; limma's squeezeVar and fitFDist). Pure.
 *
 * A row measured in three rounds has a variance on two degrees of freedom, so its own t-interval
 * has t = 4.30 and swings with luck: three rounds that happen to agree give an interval too narrow
 * for the next sitting to land in, three that happen not to give one that ranks nothing. The rows of
 * one sitting share most of what spreads their rounds (the host's phases, the same broker, the same
 * harness), so their variances are drawn from one distribution, and each row's variance is read
 * against it: the prior is fitted to the rows' variances by moments of their logs, and a row's
 * moderated variance is the df-weighted mean of the prior's and its own, on the sum of both degrees
 * of freedom. Where the rows' variances differ more than sampling explains, the prior's degrees of
 * freedom are few and each row keeps mostly its own; where they agree, each row reads the pooled one.
 */
import digamma from "@stdlib/math-base-special-digamma";
import trigamma from "@stdlib/math-base-special-trigamma";

/** A group's sample variance (of log values) and its degrees of freedom. */
export interface Spread {
  variance: number;
  df: number;
}

/** The distribution the groups' variances are drawn from: a scaled inverse χ² with `df` (Infinity when they agree within sampling) around `variance`. */
export type Prior = Spread;

/** A prior needs a spread of variances to be read from: with fewer groups each keeps its own. */
export const MIN_GROUPS_FOR_PRIOR = 3;

/**
 * A variance of zero (rounds that agree to the last digit) has no log; as limma does, such a
 * variance is read as this share of the groups' median variance.
 */
const ZERO_VARIANCE_FLOOR = 1e-5;

/** The x with trigamma(x) = y, by bisection on the decreasing trigamma. */
export function trigammaInverse(y: number): number {
  if (!(y > 0)) throw new RangeError(`trigamma takes only positive values (asked for ${y})`);
  let [low, high] = [1e-8, 1e8];
  for (let i = 0; i < 200 && high / low > 1 + 1e-12; i++) {
    const mid = Math.sqrt(low * high);
    if (trigamma(mid) > y) low = mid;
    else high = mid;
  }
  return Math.sqrt(low * high);
}

/**
 * The prior over `spreads` (groups with at least one degree of freedom), by fitFDist's moments: the
 * mean of each log variance less its expected bias, and their variance less what sampling alone
 * gives. Undefined below MIN_GROUPS_FOR_PRIOR groups or when every variance is zero.
 */
export function priorOf(spreads: readonly Spread[]): Prior | undefined {
  const groups = spreads.filter((s) => s.df >= 1);
  if (groups.length < MIN_GROUPS_FOR_PRIOR) return undefined;
  const positive = groups.map((s) => s.variance).filter((v) => v > 0).sort((a, b) => a - b);
  if (positive.length === 0) return undefined;
  const floor = ZERO_VARIANCE_FLOOR * (positive[Math.floor(positive.length / 2)] as number);
  const logs = groups.map((s) => Math.log(Math.max(s.variance, floor)) - digamma(s.df / 2) + Math.log(s.df / 2));
  const mean = logs.reduce((a, b) => a + b, 0) / logs.length;
  const spreadOfLogs = logs.reduce((a, x) => a + (x - mean) ** 2, 0) / (logs.length - 1);
  const beyondSampling = spreadOfLogs - groups.reduce((a, s) => a + trigamma(s.df / 2), 0) / groups.length;
  if (!(beyondSampling > 0)) return { variance: Math.exp(mean), df: Infinity };
  const df = 2 * trigammaInverse(beyondSampling);
  return { variance: Math.exp(mean + digamma(df / 2) - Math.log(df / 2)), df };
}

/**
 * A group's variance read against the prior, and its degrees of freedom: never more than
 * `pooledDf`, all the groups' together (limma's cap), since the prior was read from them.
 */
export function moderated(own: Spread, prior: Prior | undefined, pooledDf: number): Spread {
  if (prior === undefined) return own;
  const df = Math.min(own.df + prior.df, pooledDf);
  if (prior.df === Infinity) return { variance: prior.variance, df };
  return { variance: (prior.df * prior.variance + own.df * own.variance) / (prior.df + own.df), df };
}
