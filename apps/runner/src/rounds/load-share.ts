/**
 * Where the rounds measure: at one common share of each row's knee, the same for every row.
 *
 * The knee is the highest rate a row kept up at in its search, so a fresh session meets it from
 * the other side and falls behind there some of the time by construction; a round that falls
 * behind has no figure, and a row with few counting rounds gets a wide interval. Under the knee by
 * more than the host moves, a row keeps up round after round, and every round counts. The share is
 * set by the largest swing of the host measured with nothing else running: the same work cost up
 * to 1.40 times as much in one 15 s window as in another (docs/method.md, "How far a search repeats
 * itself"), and 1 / 1.40 is 0.71. A row measured at 0.7 of its knee keeps up through such a phase
 * even when the search met its knee in the fastest one.
 */
import type { BenchResults, RunResult } from "../results/types.ts";
import { roundRate } from "../sweep/knee.ts";

/** The share of its knee each row's ranked rounds run at. */
export const LOAD_SHARE = 0.7;

/** The share a run's round ran at: results from before the load share ran their rounds at the knee. */
export const loadShareOf = (run: RunResult): number => run.loadShare ?? 1;

/**
 * The share the results' ranking reads: the sitting's load share once its rounds' record is
 * written; while the rounds still run, the lowest share a round ran at (a window at the knee only
 * stands beside it); the knee for older results.
 */
export function rankingShare(results: BenchResults): number {
  if (results.rounds?.loadShare !== undefined) return results.rounds.loadShare;
  const shares = results.runs.filter((run) => run.round !== undefined).map(loadShareOf);
  return shares.length > 0 ? Math.min(...shares) : 1;
}

/** A round's offered rate at `share` of `knee`, on the search's grid of rates. */
export const rateAtShare = (knee: number, share: number): number => (share === 1 ? knee : roundRate(knee * share));

/** "0.7 × knee" or "the knee": where a figure was taken, as the page names it. */
export const shareLabel = (share: number): string => (share === 1 ? "the knee" : `${share} × knee`);

/**
 * Whether the results' round 1 was a window in each knee search's own session, as results written
 * before every round had a session of its own (their rounds' record names no search order).
 */
export const roundOneInSearch = (results: BenchResults): boolean => results.rounds !== undefined && results.rounds.searchOrder === undefined;
