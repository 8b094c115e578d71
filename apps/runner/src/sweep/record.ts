/** A search's steps as the results keep them: one run at a rate (stepRunner), its outcome and figures, and the search's record. */
import type { RunResult, SweepRecord } from "../results/types.ts";
import type { BenchContext } from "../run/measure.ts";
import { runSpeed } from "../page/speed.ts";
import { runSummary } from "../summary.ts";
import { GENDATA_SHORT } from "./constants.ts";
import type { StepOutcome, StepPurpose, SweepResult } from "./step.ts";

/** A search's result as the results file keeps it, with its steps' figures. */
export function sweepRecord(product: string, result: SweepResult, steps: SweepRecord["steps"], method: NonNullable<SweepRecord["method"]>): SweepRecord {
  // The search's steps are the record's last ones (the record starts with its drain run).
  const offset = steps.length - result.steps.length;
  result.steps.forEach((s, i) => {
    const step = steps[offset + i];
    if (step === undefined) return;
    if (s.slower !== undefined) step.slower = s.slower;
    if (s.rerun !== undefined) step.rerun = s.rerun;
  });
  return {
    product,
    method,
    ...(result.knee !== undefined ? { knee: result.knee } : {}),
    ...(result.bracket !== undefined ? { bracket: result.bracket } : {}),
    ...(result.kneeAtReference !== undefined ? { kneeAtReference: result.kneeAtReference } : {}),
    ...(result.ceiling !== undefined ? { ceiling: result.ceiling } : {}),
    confirmed: result.confirmed,
    stoppedBecause: result.stoppedBecause,
    steps,
  };
}

/** One step of a search: a run at `rate` (`measure`), kept (onRun) and summarised into `steps`. */
export function stepRunner(
  productId: string,
  bench: BenchContext,
  measure: (rate: number, purpose: StepPurpose) => Promise<RunResult>,
  onRun: (run: RunResult) => void,
  steps: SweepRecord["steps"],
): (rate: number, purpose: StepPurpose) => Promise<StepOutcome> {
  return async (rate, purpose) => {
    const interrupted = bench.interrupted();
    if (interrupted) return { rate, offeredPerSec: 0, consumedPerSec: 0, regime: "saturated", gendataShort: false, interrupted };
    bench.log(`== ${productId}: ${purpose} at ${rate}/s`);
    const run = await measure(rate, purpose);
    run.sweepPurpose = purpose;
    onRun(run);
    const outcome = stepOutcome(run, rate, bench.interrupted());
    steps.push({ ...outcome, purpose, ...stepFigures(run) });
    const short = outcome.gendataShort ? " (gendata short of the asked rate: not the product's limit)" : "";
    bench.log(`== ${productId}: ${purpose} at ${rate}/s -> ${outcome.interrupted ?? runSummary(run)}${short}`);
    return outcome;
  };
}

/** A step's figures beside its outcome: lag drift and CPU, and the conditions it ran in. */
export function stepFigures(run: RunResult): Partial<SweepRecord["steps"][number]> {
  const c = run.conditions;
  return {
    ...(run.throughput ? { lagDrift: run.throughput.lagDrift, cpuAvg: run.throughput.cpuAvg } : {}),
    ...(c ? { speedIndex: runSpeed(run) ?? c.speedIndexBefore, foreignCpuAvg: c.foreignCpuAvg, stealAvg: c.stealAvg } : {}),
  };
}

/**
 * What the knee search needs to know of a measured run. A run the bench's own interruption cut
 * short is the bench's doing, not the product's: interrupted, never failed.
 */
export function stepOutcome(run: RunResult, rate: number, interrupted?: string): StepOutcome {
  const t = run.throughput;
  const firstLine = (text: string | undefined): string => (text ?? "no reason recorded").split("\n")[0] as string;
  const speed = runSpeed(run);
  return {
    rate,
    offeredPerSec: t?.offeredPerSec ?? 0,
    consumedPerSec: t?.consumedPerSec ?? 0,
    regime: t?.regime ?? "saturated",
    gendataShort: t !== undefined && t.offeredPerSec < rate * GENDATA_SHORT,
    ...(interrupted ? { interrupted } : run.status === "failed" ? { failed: firstLine(run.reason) } : {}),
    ...(run.status === "invalid" ? { invalid: firstLine(run.reason) } : {}),
    ...(run.conditions?.noisy ? { noisy: run.conditions.noisyBecause.join("; ") } : {}),
    ...(run.settled === false ? { unsettled: true } : {}),
    ...(t ? { cpuMicrosPerInference: t.cpuMicrosPerInference } : {}),
    ...(speed !== undefined ? { speedIndex: speed } : {}),
  };
}
