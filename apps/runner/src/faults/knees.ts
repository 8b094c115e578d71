/** `--knees results.json`: each product's confirmed knee from a knee search's results, the overload scenario's base rate. */
import type { BenchResults } from "../results/types.ts";

export function kneesFrom(results: BenchResults): Map<string, number> {
  return new Map((results.sweeps ?? []).filter((s) => s.knee !== undefined && s.confirmed).map((s) => [s.product, s.knee as number]));
}
