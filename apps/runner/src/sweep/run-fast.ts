/**
 * The main command's knee search: a drain run measures the product's ceiling, then paced steps
 * start just under it (fast-knee.ts) in one paced session (one start, one gate, one audit whose
 * verdict applies to every step), each window ending when its figure is known. Every run is
 * kept in the results, and the search is a SweepRecord (method "fast") whose first step is the
 * drain run, so the page renders it like a `--sweep`.
 */
import type { Prepared, Product } from "@bench/core";
import { WINDOW_STOP_RULE } from "../metrics/window-stop.ts";
import type { RunResult, SweepRecord } from "../results/types.ts";
import { drainRun } from "../run/drain-run.ts";
import type { PrefilledInput } from "../run/prefilled-input.ts";
import type { BenchContext, RunSettings } from "../run/measure.ts";
import { runSummary } from "../summary.ts";
import { PacedSession } from "../run/paced-session.ts";
import { findKneeFromCeiling } from "./fast-knee.ts";
import type { SweepResult } from "./knee.ts";
import { stepFigures, stepOutcome, stepRunner, sweepRecord } from "./run-sweep.ts";

/**
 * Of what gendata offered alone while it pre-filled, the share it can offer beside a product
 * (2 cores: the product, gendata and the broker share them). The committed sweeps' highest
 * rate gendata reached beside a product was 160k/s of its ~200k/s alone.
 */
export const PACED_GENDATA_SHARE = 0.8;

/** Why a drain run gives no ceiling to start from, if it does not. */
function noCeiling(drain: RunResult, interrupted: string | undefined): string | undefined {
  if (interrupted) return `the bench was ${interrupted} during the drain run`;
  if (drain.status === "failed") return `the drain run failed: ${(drain.reason ?? "no reason recorded").split("\n")[0]}`;
  if (drain.status === "invalid") return `the drain run was invalid: ${(drain.reason ?? "no reason recorded").split("\n")[0]}`;
  if (!drain.throughput || !(drain.throughput.consumedPerSec > 0) || !drain.prefill) return "the drain run measured no drain rate";
  return undefined;
}

/**
 * The session's audit found its output wanting: every paced step shared that output, so each is
 * invalid, and a product that did not do the work gets no knee.
 */
function withdrawn(found: SweepResult, steps: SweepRecord["steps"], audit: string): SweepResult {
  for (const step of steps) if (step.purpose !== "drain" && step.failed === undefined) step.invalid = audit.split("\n")[0] as string;
  const { knee: _knee, ...rest } = found;
  return { ...rest, confirmed: false, stoppedBecause: `${found.stoppedBecause} The paced runs' audit found: ${audit}; no knee is reported for a product with an invalid run.` };
}

export async function fastKneeProduct(
  product: Product,
  prepared: Prepared,
  base: RunSettings,
  bench: BenchContext,
  input: PrefilledInput,
  onRun: (run: RunResult) => void,
): Promise<SweepRecord> {
  bench.log(`== ${product.id}: drain run (${input.backlog} records pre-filled, then the product started)`);
  const drain = await drainRun(product, prepared, base, bench, input);
  onRun(drain);
  bench.log(`== ${product.id}: drain -> ${runSummary(drain)}`);
  const outcome = stepOutcome(drain, 0, bench.interrupted());
  const steps: SweepRecord["steps"] = [{ ...outcome, purpose: "drain", ...stepFigures(drain) }];
  const why = noCeiling(drain, bench.interrupted());
  if (why !== undefined) return { product: product.id, method: "fast", confirmed: false, stoppedBecause: `${why}.`, steps };

  const ceiling = drain.throughput?.consumedPerSec as number;
  const gendataCap = (drain.prefill?.ratePerSec as number) * PACED_GENDATA_SHARE;
  const session = new PacedSession(product, prepared, { ...base, windowRule: WINDOW_STOP_RULE }, bench);
  let found: SweepResult;
  let audit: string | undefined;
  try {
    await session.open();
    found = await findKneeFromCeiling(stepRunner(product.id, bench, (rate, purpose) => session.step(rate, purpose), onRun, steps), { ceiling, gendataCap });
  } finally {
    audit = await session.close();
  }
  const result = audit === undefined ? found : withdrawn(found, steps, audit);
  // The ceiling is a figure on the page only from a settled, quiet drain; otherwise it only set where the paced runs began.
  const quiet = drain.settled === true && drain.conditions?.noisy !== true;
  const caveat = quiet ? "" : ` The drain run was ${drain.settled === true ? "noisy" : "not settled"}: its rate only set where the paced runs began.`;
  const record = sweepRecord(product.id, { ...result, ceiling: quiet ? ceiling : undefined, stoppedBecause: `${result.stoppedBecause}${caveat}` }, steps, "fast");
  return record;
}
