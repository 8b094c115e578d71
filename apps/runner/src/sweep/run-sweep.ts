/**
 * `bench --sweep`: the main command's knee search (run-fast.ts, knee.ts) at the sweep's finer
 * resolution, with the confirm on and a fixed window (`--window`) at every paced step, so the
 * main command's search can be checked against it (`--agreement`).
 */
import type { Prepared, Product } from "@bench/core";
import type { RunResult, SweepRecord } from "../results/types.ts";
import type { BenchContext, RunSettings } from "../run/measure.ts";
import { MAX_SWEEP_STEPS, SWEEP_RESOLUTION } from "./constants.ts";
import { searchProduct } from "./run-fast.ts";

/** The sweep's options: the bracket within `resolution` (SWEEP_RESOLUTION by default), confirmed. */
export function sweepOptions(resolution = SWEEP_RESOLUTION): { resolution: number; confirm: true; maxSteps: number } {
  return { resolution, confirm: true, maxSteps: MAX_SWEEP_STEPS };
}

/**
 * The sweep runs in one product session, as the main command's search does: a stream processor is
 * deployed to run on, and a session per step would measure the JVM rows while they are still
 * warming. `audited` is the record once the session's audit has read.
 */
export async function sweepProduct(
  product: Product,
  prepared: Prepared,
  base: RunSettings,
  resolution: number,
  bench: BenchContext,
  onRun: (run: RunResult) => void,
): Promise<{ audited: Promise<SweepRecord> }> {
  return searchProduct(product, prepared, bench, onRun, { label: "sweep", method: "sweep", settings: base, options: sweepOptions(resolution) });
}
