/**
 * The main command's knee search, in one product session (one start, one gate, one audit whose
 * verdict applies to every step, read while the next product starts): a drain measures the product's ceiling over a backlog gendata
 * filled beside it, then paced steps start just under it (fast-knee.ts), each window ending when
 * its figure is known. Every run is kept in the results, and the search is a SweepRecord (method
 * "fast") whose first step is the drain, so the page renders it like a `--sweep`.
 */
import type { Prepared, Product } from "@bench/core";
import { WINDOW_STOP_RULE } from "../metrics/window-stop.ts";
import type { RunResult, SweepRecord } from "../results/types.ts";
import type { BenchContext, RunSettings } from "../run/measure.ts";
import { runSpeed } from "../page/speed.ts";
import { runSummary } from "../summary.ts";
import { PacedSession } from "../run/paced-session.ts";
import { chosenDrain, drainAgain, drainCeiling, drainHolds, keptPaceWithFill, noCeiling } from "./drain-choice.ts";
import { findKneeFromCeiling, ROUNDS_RESOLUTION } from "./fast-knee.ts";
import { audited, searchInSession } from "./in-session.ts";
import { benchSpeed } from "./speed-wait.ts";
import type { SweepResult } from "./knee.ts";
import { stepFigures, stepOutcome, stepRunner, sweepRecord } from "./run-sweep.ts";

/**
 * Of what gendata wrote as fast as it could beside the saturated product while it filled the
 * drain's backlog, the share a paced step asks of it: a paced gendata at its limit falls behind.
 */
export const PACED_GENDATA_SHARE = 0.9;

/** One drain, logged and kept as a step of the search. */
async function drainOnce(
  product: Product,
  session: PacedSession,
  bench: BenchContext,
  onRun: (run: RunResult) => void,
  steps: SweepRecord["steps"],
  what: string,
): Promise<RunResult> {
  bench.log(`== ${product.id}: ${what}`);
  const drain = await session.drainStep();
  onRun(drain);
  bench.log(`== ${product.id}: drain -> ${runSummary(drain)}`);
  steps.push({ ...stepOutcome(drain, 0, bench.interrupted()), purpose: "drain", ...stepFigures(drain) });
  return drain;
}

/** The drain, run once more when the machine read busy during it (drain-choice.ts). */
async function measuredDrain(
  product: Product,
  session: PacedSession,
  bench: BenchContext,
  onRun: (run: RunResult) => void,
  steps: SweepRecord["steps"],
): Promise<RunResult> {
  const first = await drainOnce(
    product,
    session,
    bench,
    onRun,
    steps,
    "drain (gendata fills a backlog beside the product, then stops; the product drains it alone)",
  );
  if (!drainAgain(first, bench.interrupted())) return first;
  const again = await drainOnce(
    product,
    session,
    bench,
    onRun,
    steps,
    "drain once more (the machine was busy during the first: its rate would only set where the paced runs begin)",
  );
  return chosenDrain(first, again, bench.interrupted());
}

/** The drain, then the search from its ceiling; a drain that gave none ends the search there, saying why. */
async function drainThenSearch(
  product: Product, session: PacedSession, bench: BenchContext, onRun: (run: RunResult) => void, steps: SweepRecord["steps"], confirm: boolean,
): Promise<{ drain: RunResult; found: SweepResult }> {
  const drain = await measuredDrain(product, session, bench, onRun, steps);
  const why = noCeiling(drain, bench.interrupted());
  if (why !== undefined) return { drain, found: { steps: [], confirmed: false, stoppedBecause: `${why}.` } };
  const { rate: ceiling, byGendata: ceilingByGendata } = drainCeiling(drain);
  const gendataCap = (drain.prefill?.ratePerSec as number) * PACED_GENDATA_SHARE;
  const ceilingUnsettled = !drainHolds(drain);
  const ceilingSpeed = runSpeed(drain);
  const opts = {
    ceiling, gendataCap, ceilingByGendata, ceilingUnsettled, confirm,
    ...(ceilingSpeed !== undefined ? { ceilingSpeed } : {}),
    ...(confirm ? {} : { resolution: ROUNDS_RESOLUTION }),
  };
  const found = await findKneeFromCeiling(
    stepRunner(product.id, bench, (rate, purpose) => session.step(rate, purpose), onRun, steps),
    opts,
    benchSpeed(bench, product.id),
  );
  return { drain, found };
}

/**
 * The search, then the product stopped; `audited` is its record once the session's audit has
 * ended, which reads on while the bench prepares, starts and gates the next product (the next
 * session times nothing before it ends: BenchContext.quiet).
 */
export async function fastKneeProduct(
  product: Product, prepared: Prepared, base: RunSettings, bench: BenchContext, onRun: (run: RunResult) => void, confirm = true,
  afterSearch?: (session: PacedSession, knee: number | undefined) => Promise<void>,
): Promise<{ audited: Promise<SweepRecord> }> {
  const session = new PacedSession(product, prepared, { ...base, windowRule: WINDOW_STOP_RULE }, bench);
  const steps: SweepRecord["steps"] = [];
  const { outcome, audit } = await searchInSession(session, async () => {
    const searched = await drainThenSearch(product, session, bench, onRun, steps, confirm);
    await afterSearch?.(session, searched.found.knee);
    return searched;
  });
  return { audited: audit.then((why) => fastRecord(product.id, outcome, steps, why)) };
}

/** Why a drain's backlog was short, when the product kept pace with gendata's fill. */
function shortBacklog(drain: RunResult): string {
  if (keptPaceWithFill(drain)) return " (the product worked off gendata's fill as it was written, so gendata's rate stood in for its own)";
  if (drain.prefill?.besideProduct === "outpaced") return " (gendata could not write faster than the product read, so its backlog was short)";
  return "";
}

/** The search's record with the audit's verdict: an output found wanting withdraws the knee. */
function fastRecord(
  productId: string,
  { drain, found }: { drain: RunResult; found: SweepResult },
  steps: SweepRecord["steps"],
  audit: string | undefined,
): SweepRecord {
  const result = audited(found, steps, audit);
  // The ceiling is a figure on the page only from a settled, quiet drain; otherwise it only set where the paced runs began.
  const quiet = drainHolds(drain);
  const caveat =
    quiet || drain.throughput === undefined
      ? ""
      : ` The drain was ${drain.settled === true ? "noisy" : "not settled"}` +
        `${shortBacklog(drain)}: its rate only set where the paced runs began.`;
  return sweepRecord(productId, { ...result, ceiling: quiet ? result.ceiling : undefined, stoppedBecause: `${result.stoppedBecause}${caveat}` }, steps, "fast");
}
