/**
 * Where a row's rounds run when its knee does not hold. Pure: run-rounds.ts asks after each round.
 *
 * A knee is the highest rate the row sustains. The search finds it in one session, warm; a round
 * starts the product cold minutes later, in another phase of the host. When at its rate a row has
 * fallen behind in as many rounds as it kept up in, the rate is not sustainable by the majority of
 * what the bench saw, so the row moves down: to the highest lower rate it kept up at and never fell
 * behind at (its search's steps and rounds), else one DOWN_SHARE step below. A round that was noisy,
 * invalid or draining says nothing against the rate and is counted neither way.
 */
import type { BenchResults, KneeMove, RunResult } from "../results/types.ts";
import { countsAsResult } from "../page/rows.ts";
import { roundRate } from "../sweep/knee.ts";
import { DOWN_SHARE } from "../sweep/fast-knee.ts";

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

/** Rounds at `rate` that kept up and that fell behind. */
export function verdictsAt(runs: readonly RunResult[], rate: number): { keptUp: number; fellBehind: number } {
  const at = runs.filter((r) => r.round !== undefined && rateOf(r) === rate);
  return { keptUp: at.filter(countsAsResult).length, fellBehind: at.filter(fellBehind).length };
}

/** Where a row moves after round `afterRound` from its rounds at `from`, or undefined when the rate holds. */
export function kneeAfterRounds(results: BenchResults, product: string, from: number, afterRound: number): KneeMove | undefined {
  const runs = results.runs.filter((r) => r.product === product && rateOf(r) > 0);
  const v = verdictsAt(runs, from);
  if (v.fellBehind === 0 || v.fellBehind < v.keptUp) return undefined;
  const behind = new Set(runs.filter(fellBehind).map(rateOf));
  const lower = runs.filter((r) => rateOf(r) < from && countsAsResult(r) && !behind.has(rateOf(r))).map(rateOf);
  const to = lower.length > 0 ? Math.max(...lower) : roundRate(from * DOWN_SHARE);
  return { product, afterRound, from, to, ...v };
}

/** One sentence for the log and the sweep's record. */
export function moveSentence(m: KneeMove): string {
  const n = (x: number): string => x.toLocaleString("en-US");
  return (
    `After round ${m.afterRound} its rounds at ${n(m.from)}/s had fallen behind in ${m.fellBehind} and kept up in ${m.keptUp}, ` +
    `so its knee moved to ${n(m.to)}/s for its later rounds.`
  );
}
