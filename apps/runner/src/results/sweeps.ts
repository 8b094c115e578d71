import type { BenchResults, SweepRecord } from "./types.ts";

/** The row's knee search in these results, if it had one. */
export function sweepOf(results: Pick<BenchResults, "sweeps">, product: string): SweepRecord | undefined {
  return results.sweeps?.find((s) => s.product === product);
}
