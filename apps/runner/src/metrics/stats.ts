/** The few statistics the bench takes of its series, written once. */
import tQuantile from "@stdlib/stats-base-dists-t-quantile";

/** Student's t quantile at 0.975 (a two-sided 95 % interval) for `df` degrees of freedom, fractional ones too (a moderated variance has them). */
export function t975(df: number): number {
  if (!(df >= 1)) throw new RangeError(`t975 needs at least one degree of freedom (got ${df})`);
  return df === Infinity ? 1.959964 : tQuantile(0.975, df);
}

/** The middle value (the mean of the two middle ones for an even count); 0 for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** How much a set of readings spreads: sample standard deviation over the mean (the page states the speed index's with it). */
export function coefficientOfVariation(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  if (mean === 0) return 0;
  const variance = values.reduce((a, b) => a + (b - mean) ** 2, 0) / (values.length - 1);
  return Math.sqrt(variance) / mean;
}
