/**
 * Where a row's rounds run when they do not hold at their rate. Pure: run-rounds.ts asks after each round.
 *
 * The rounds run each row at the sitting's load share of its knee (load-share.ts), under the knee
 * by more than the host moves, so a row falls behind there rarely. When at its rate a row has
 * fallen behind in as many rounds as it kept up in, that rate is not one it sustains by the
 * majority of what the bench saw, so its later rounds run MOVE_DOWN_SHARE lower. A round that was
 * noisy, invalid or draining says nothing against the rate and is counted neither way.
 */
import type { BenchResults, KneeMove, RunResult } from "../results/types.ts";
import { countsAsResult } from "../page/rows.ts";
import { roundRate } from "../sweep/knee.ts";
import { loadShareOf } from "./load-share.ts";

/** A row whose rounds did not hold moves this share of its rate down: one step of the knee search's bisection at its finest. */
export const MOVE_DOWN_SHARE = 0.9;

/**
 * The product ran clean and did not keep up: saturated, or its backlog never settled. A draining
 * window is not one: the row consumed faster than the rate while it worked off a backlog, so the
 * rate is under what it sustains, though the window's catch-up CPU is no figure either.
 */
export function fellBehind(run: RunResult): boolean {
  if (run.status !== "ok" || run.conditions?.noisy === true || run.throughput === undefined) return false;
  return run.settled === false || run.throughput.regime === "saturated";
}

const rateOf = (run: RunResult): number => run.settings.offeredRate;

/** Rounds at `rate` and `share` of the knee that kept up and that fell behind. */
export function verdictsAt(runs: readonly RunResult[], rate: number, share: number): { keptUp: number; fellBehind: number } {
  const at = runs.filter((r) => r.round !== undefined && rateOf(r) === rate && loadShareOf(r) === share);
  return { keptUp: at.filter(countsAsResult).length, fellBehind: at.filter(fellBehind).length };
}

/** Where a row's rounds at `share` of its knee move after round `afterRound` from `from`, or undefined when the rate holds. */
export function kneeAfterRounds(results: BenchResults, product: string, from: number, afterRound: number, share: number): KneeMove | undefined {
  const runs = results.runs.filter((r) => r.product === product && rateOf(r) > 0);
  const v = verdictsAt(runs, from, share);
  if (v.fellBehind === 0 || v.fellBehind < v.keptUp) return undefined;
  return { product, afterRound, from, to: roundRate(from * MOVE_DOWN_SHARE), ...v, loadShare: share };
}

/** One sentence for the log and the page. */
export function moveSentence(m: KneeMove): string {
  const n = (x: number): string => x.toLocaleString("en-US");
  const what = m.loadShare === undefined || m.loadShare === 1 ? "its knee" : "its rounds' rate";
  return (
    `After round ${m.afterRound} its rounds at ${n(m.from)}/s had fallen behind in ${m.fellBehind} and kept up in ${m.keptUp}, ` +
    `so ${what} moved to ${n(m.to)}/s for its later rounds.`
  );
}
