/**
 * `--knees results.json`: each product's base rate for the overload scenario, from a knee search's
 * results. A sweep's knee counts once a repeat confirmed it. A main command's rounds ran each row
 * at a load share of its knee, where it kept up round after round: that rate is the row's
 * sustained operating point, and the base rate for rows with at least two counting rounds there.
 */
import type { BenchResults } from "../results/types.ts";
import { isRanked, standings } from "../rounds/standing.ts";

export function kneesFrom(results: BenchResults): Map<string, number> {
  const base = new Map((results.sweeps ?? []).filter((s) => s.knee !== undefined && s.confirmed).map((s) => [s.product, s.knee as number]));
  if (results.rounds?.loadShare === undefined) return base;
  for (const row of standings(results).rows) if (isRanked(row)) base.set(row.product, row.rate);
  return base;
}
