/**
 * A knee search in one product session (one start, one gate, one audit whose verdict applies to
 * every step, read while the next product starts): a drain measures the product's ceiling over a
 * backlog gendata filled beside it, then paced steps bracket the knee under it (knee.ts). Every
 * run is kept in the results, and the search is a SweepRecord whose first step is the drain. The
 * main command's search (fastKneeProduct) and `--sweep`'s (run-sweep.ts) are this one search, at
 * their own resolution, with and without the confirm.
 */
import type { Prepared, Product } from "@bench/core";
import { WINDOW_STOP_RULE } from "../metrics/window-stop.ts";
import type { RunResult, SweepRecord } from "../results/types.ts";
import type { BenchContext, RunSettings } from "../run/measure.ts";
import { runSummary } from "../summary.ts";
import { PacedSession } from "../run/paced-session.ts";
import { MAX_SEARCH_STEPS, PACED_GENDATA_SHARE, SEARCH_RESOLUTION } from "./constants.ts";
import { chosenDrain, drainAgain, drainCeiling, drainHolds, keptPaceWithFill, noCeiling } from "./drain-choice.ts";
import { findKnee, type SearchOptions, type SweepResult } from "./knee.ts";
import { audited, searchInSession } from "./in-session.ts";
import { stepFigures, stepOutcome, stepRunner, sweepRecord } from "./record.ts";
import { benchSpeed } from "./speed-wait.ts";

/** What a search of one product is: its session's label and settings, its options, and the record's method. */
export interface SearchPlan {
  label: "paced" | "sweep";
  method: NonNullable<SweepRecord["method"]>;
  settings: RunSettings;
  options: SearchOptions;
}

/** One drain, logged and kept as a step of the search. */
async function drainOnce(
  product: Product, session: PacedSession, bench: BenchContext, onRun: (run: RunResult) => void, steps: SweepRecord["steps"], what: string,
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
  product: Product, session: PacedSession, bench: BenchContext, onRun: (run: RunResult) => void, steps: SweepRecord["steps"],
): Promise<RunResult> {
  const what = "drain (gendata fills a backlog beside the product, then stops; the product drains it alone)";
  const first = await drainOnce(product, session, bench, onRun, steps, what);
  if (!drainAgain(first, bench.interrupted())) return first;
  const again = "drain once more (the machine was busy during the first: its rate would only set where the paced runs begin)";
  return chosenDrain(first, await drainOnce(product, session, bench, onRun, steps, again), bench.interrupted());
}

/** The drain, then the search from its ceiling; a drain that gave none ends the search there, saying why. */
async function drainThenSearch(
  product: Product, session: PacedSession, bench: BenchContext, onRun: (run: RunResult) => void, steps: SweepRecord["steps"], options: SearchOptions,
): Promise<{ drain: RunResult; found: SweepResult }> {
  const drain = await measuredDrain(product, session, bench, onRun, steps);
  const why = noCeiling(drain, bench.interrupted());
  if (why !== undefined) return { drain, found: { steps: [], confirmed: false, stoppedBecause: `${why}.` } };
  const { rate: ceiling, byGendata: ceilingByGendata } = drainCeiling(drain);
  const figures = { ceiling, gendataCap: (drain.prefill?.ratePerSec as number) * PACED_GENDATA_SHARE, ceilingByGendata, ceilingUnsettled: !drainHolds(drain) };
  const run = stepRunner(product.id, bench, (rate, purpose) => session.step(rate, purpose), onRun, steps);
  return { drain, found: await findKnee(run, figures, options, benchSpeed(bench, product.id)) };
}

/**
 * The search of one product, then the product stopped; `audited` is its record once the session's
 * audit has ended, which reads on while the bench prepares, starts and gates the next product (the
 * next session times nothing before it ends: BenchContext.quiet).
 */
export async function searchProduct(
  product: Product, prepared: Prepared, bench: BenchContext, onRun: (run: RunResult) => void, plan: SearchPlan,
): Promise<{ audited: Promise<SweepRecord> }> {
  const session = new PacedSession(product, prepared, plan.settings, bench, plan.label);
  const steps: SweepRecord["steps"] = [];
  const { outcome, audit } = await searchInSession(session, () => drainThenSearch(product, session, bench, onRun, steps, plan.options));
  return { audited: audit.then((why) => searchRecord(product.id, outcome, steps, why, plan.method)) };
}

/** The main command's search: 20 %, and no confirm unless asked (its rounds measure each row under its knee). */
export async function fastKneeProduct(
  product: Product,
  prepared: Prepared,
  base: RunSettings,
  bench: BenchContext,
  onRun: (run: RunResult) => void,
  confirm = true,
): Promise<{ audited: Promise<SweepRecord> }> {
  const options: SearchOptions = { resolution: SEARCH_RESOLUTION, confirm, maxSteps: MAX_SEARCH_STEPS };
  const settings = { ...base, windowRule: WINDOW_STOP_RULE };
  return searchProduct(product, prepared, bench, onRun, { label: "paced", method: "fast", settings, options });
}

/** Why a drain's backlog was short, when the product kept pace with gendata's fill. */
function shortBacklog(drain: RunResult): string {
  if (keptPaceWithFill(drain)) return " (the product worked off gendata's fill as it was written, so gendata's rate stood in for its own)";
  if (drain.prefill?.besideProduct === "outpaced") return " (gendata could not write faster than the product read, so its backlog was short)";
  return "";
}

/** The search's record with the audit's verdict: an output found wanting withdraws the knee. */
function searchRecord(
  productId: string,
  { drain, found }: { drain: RunResult; found: SweepResult },
  steps: SweepRecord["steps"],
  audit: string | undefined,
  method: NonNullable<SweepRecord["method"]>,
): SweepRecord {
  const result = audited(found, steps, audit);
  // The ceiling is a figure on the page only from a settled, quiet drain; otherwise it only set where the paced runs began.
  const quiet = drainHolds(drain);
  const caveat =
    quiet || drain.throughput === undefined
      ? ""
      : ` The drain was ${drain.settled === true ? "noisy" : "not settled"}${shortBacklog(drain)}: its rate only set where the paced runs began.`;
  const { ceiling: _ceiling, ...rest } = result;
  const ceiling = quiet && result.ceiling !== undefined ? { ceiling: result.ceiling } : {};
  return sweepRecord(productId, { ...rest, ...ceiling, stoppedBecause: `${result.stoppedBecause}${caveat}` }, steps, method);
}
