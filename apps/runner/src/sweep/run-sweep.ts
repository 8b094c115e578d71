/**
 * `bench --sweep`: a product's knee found the long way (knee.ts: a climb ×2, a bisection to the
 * resolution, a confirm), every step a measured run of a fixed window kept in the results; and
 * what both searches share to run a step and keep its record.
 */
import type { Prepared, Product } from "@bench/core";
import type { RunResult, SweepRecord } from "../results/types.ts";
import type { BenchContext, RunSettings } from "../run/measure.ts";
import { PacedSession } from "../run/paced-session.ts";
import { runSpeed } from "../page/speed.ts";
import { runSummary } from "../summary.ts";
import { audited, searchInSession } from "./in-session.ts";
import { benchSpeed } from "./speed-wait.ts";
import { findKnee, type StepOutcome, type StepPurpose, type SweepOptions, type SweepResult } from "./knee.ts";

/** gendata delivering less than this share of the asked rate says nothing about the product. */
const GENDATA_SHORT = 0.95;

/**
 * The sweep runs in one product session, as the fast search does (in-session.ts): a stream
 * processor is deployed to run on, and a session per step would measure the JVM rows while they
 * are still warming, so two searches would differ by the start, not by the search. `audited` is the record once the session's audit has read.
 */
export async function sweepProduct(
  product: Product,
  prepared: Prepared,
  base: RunSettings,
  options: SweepOptions,
  bench: BenchContext,
  onRun: (run: RunResult) => void,
): Promise<{ audited: Promise<SweepRecord> }> {
  const session = new PacedSession(product, prepared, base, bench, "sweep");
  const steps: SweepRecord["steps"] = [];
  const run = stepRunner(product.id, bench, (rate, purpose) => session.step(rate, purpose), onRun, steps);
  const { outcome, audit } = await searchInSession(session, () => findKnee(run, options, benchSpeed(bench, product.id)));
  return { audited: audit.then((why) => sweepRecord(product.id, audited(outcome, steps, why), steps)) };
}

/** A search's result as the results file keeps it, with its steps' figures. */
export function sweepRecord(product: string, result: SweepResult, steps: SweepRecord["steps"], method?: SweepRecord["method"]): SweepRecord {
  // The search's steps are the record's last ones (a fast search's record starts with its drain run).
  const offset = steps.length - result.steps.length;
  result.steps.forEach((s, i) => {
    const step = steps[offset + i];
    if (step === undefined) return;
    if (s.slower !== undefined) step.slower = s.slower;
    if (s.keptUpAtSpeed === true) step.keptUpAtSpeed = true;
    if (s.rerun !== undefined) step.rerun = s.rerun;
  });
  return {
    product,
    ...(method ? { method } : {}),
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
