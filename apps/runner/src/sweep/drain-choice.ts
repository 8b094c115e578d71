/**
 * Which drain the fast search reads its ceiling from. A drain measured while the host read busy
 * (steal or foreign load over their bounds) is run once more: its rate would only set where the
 * paced steps begin, and under steal it can read half the product's rate, which starts the search
 * far under the knee. One more drain costs about a paced step; a ceiling that holds saves the climb.
 */
import type { RunResult } from "../results/types.ts";

/** A settled, quiet drain: its rate is the product's ceiling, not only where the paced runs begin. */
export function drainHolds(drain: RunResult): boolean {
  return drain.settled === true && drain.conditions?.noisy !== true;
}

/**
 * The product read about as fast as gendata wrote beside it: the fill stopped outpaced or at its
 * cap, and the product had worked off what was left before the drain's window began, so the window
 * read no rate. Such a product is at least as fast as gendata: its ceiling is gendata's fill rate,
 * a ceiling that is gendata's, as when the fill stops outpaced and the window still reads a rate.
 */
export function keptPaceWithFill(drain: RunResult): boolean {
  const beside = drain.prefill?.besideProduct;
  const windowRead = (drain.throughput?.consumedPerSec ?? 0) > 0;
  return drain.status === "ok" && (beside === "outpaced" || beside === "cap") && !windowRead && (drain.prefill?.ratePerSec ?? 0) > 0;
}

/** The ceiling a drain gives: its rate, or gendata's fill rate when the product kept pace with the fill. */
export function drainCeiling(drain: RunResult): { rate: number; byGendata: boolean } {
  if (keptPaceWithFill(drain)) return { rate: drain.prefill?.ratePerSec as number, byGendata: true };
  return { rate: drain.throughput?.consumedPerSec as number, byGendata: drain.prefill?.besideProduct === "outpaced" };
}

/** Why a drain gives no ceiling to start from, if it does not. */
export function noCeiling(drain: RunResult, interrupted: string | undefined): string | undefined {
  if (interrupted) return `the bench was ${interrupted} during the drain`;
  if (drain.status === "failed") return `the drain failed: ${(drain.reason ?? "no reason recorded").split("\n")[0]}`;
  if (drain.status === "invalid") return `the drain was invalid: ${(drain.reason ?? "no reason recorded").split("\n")[0]}`;
  if (keptPaceWithFill(drain)) return undefined;
  if (!drain.throughput || !(drain.throughput.consumedPerSec > 0) || !drain.prefill) return "the drain measured no drain rate";
  return undefined;
}

/** The drain ran on a busy machine but measured a rate: one more drain may give a ceiling that holds. */
export function drainAgain(first: RunResult, interrupted: string | undefined): boolean {
  return first.conditions?.noisy === true && noCeiling(first, interrupted) === undefined;
}

/**
 * Of a busy drain and its repeat, the one the search reads: the repeat when it holds or gives no
 * ceiling (a failure or an interruption ends the search there); else the faster of the two, since
 * steal and foreign load only slow a drain and either only sets where the paced steps begin.
 */
export function chosenDrain(first: RunResult, again: RunResult, interrupted: string | undefined): RunResult {
  if (drainHolds(again) || noCeiling(again, interrupted) !== undefined) return again;
  const rate = (d: RunResult): number => d.throughput?.consumedPerSec ?? 0;
  return rate(again) >= rate(first) ? again : first;
}
