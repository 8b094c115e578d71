/**
 * `--knees results.json`: each product's base rate for the overload scenario, from a knee search's
 * results. A sweep's knee counts once a repeat confirmed it. A main command's rounds ran each row
 * at a load share of its knee, where it kept up round after round: that rate is the row's
 * sustained operating point, and the base rate for rows with at least two counting rounds there.
 */
import type { BenchResults, OverloadBaseFrom } from "../results/types.ts";
import { isRanked, standings } from "../rounds/standing.ts";

/** A row's overload base rate and what it is: a confirmed knee, or the share of the knee its rounds ran at. */
export interface OverloadBase {
  rate: number;
  from: OverloadBaseFrom;
}

export function kneesFrom(results: BenchResults): Map<string, OverloadBase> {
  const confirmed = (results.sweeps ?? []).filter((s) => s.knee !== undefined && s.confirmed);
  const base = new Map<string, OverloadBase>(confirmed.map((s) => [s.product, { rate: s.knee as number, from: "knee" }]));
  const share = results.rounds?.loadShare;
  if (share === undefined) return base;
  for (const row of standings(results).rows) if (isRanked(row)) base.set(row.product, { rate: row.rate, from: `${share} × knee` });
  return base;
}
