/**
 * Where each row stands after the rounds: its figure by round, its median and 95 % interval (the
 * rows' spreads read together, moderation.ts), how it compares with every other row paired by
 * round, and the ranks it may hold. Pure: the bench
 * reads it to spend further rounds where the order is unknown, the page to rank and tie.
 *
 * A round's figure for a row is µs CPU per inference over a window at the sitting's load share of
 * the row's knee (load-share.ts) that counts as a result (valid, settled, quiet, kept up), taken to
 * the sitting's median speed where that brings each row's rounds closer together (drift.ts). Every round is a window of its own at that rate, rows in a
 * fresh random order each round, so a slow phase of the host lands on different rows each round. A
 * row that fell behind even there moved down (knee-moves.ts), and its rounds at the rate it left
 * that kept up count too. Older results ran their rounds at the knee, and read so.
 */
import type { BenchResults, RunResult } from "../results/types.ts";
import { countsAsResult } from "../page/rows.ts";
import { halfWidth, medianIntervals, pairedRatios, ratioVerdict, SAME_MARGIN, type Interval, type RatioVerdict } from "./intervals.ts";
import { driftChoice, driftCorrected, sittingSpeed, type DriftChoice, type RoundFigure } from "./drift.ts";
import { loadShareOf, rankingShare } from "./load-share.ts";

export interface RoundRun {
  round: number;
  run: RunResult;
  /** Counts as the row's figure for this round: a result (valid, settled, quiet, kept up). */
  counts: boolean;
  /** Its µs CPU per inference, at the sitting's median speed where the sitting takes it there (drift.ts); 0 when the run has none. */
  micros: number;
}

export interface RowStanding {
  product: string;
  /** The rate of the row's latest round: its load share of its knee, lower when it moved down (knee-moves.ts). */
  rate: number;
  /** Every round's run, counting or not, in round order. */
  rounds: RoundRun[];
  /** µs CPU per inference by round (at the sitting's median speed where it takes them there, drift.ts), of the rounds that count. */
  byRound: Map<number, number>;
  interval?: Interval;
  /** The ranks this row may hold: 1 + the rows told cheaper than it, to n − the rows told dearer. */
  ranks?: { best: number; worst: number };
}

/**
 * A row is ranked only with at least this many counting rounds: one window has no interval, is
 * UNKNOWN against every row, and would widen every other row's rank range for nothing.
 */
export const MIN_COUNTING_ROUNDS = 2;

/**
 * After the rounds every row runs (run-rounds.ts' ALWAYS_ROUNDS), a row whose interval is wider
 * than this share of its figure gets the make-up round, as a row that lost a round does: where
 * every row's rounds count, three rounds give half-widths of a few percent, and one this wide says
 * one of its sessions sat far from the others, and a fourth session says which.
 */
export const WIDE_HALF_WIDTH = 0.1;

/**
 * After the rounds every row runs, a sitting whose ranked rows' median half-width is wider than
 * this gives the make-up round to every row: three rounds reach it where a host's rounds agree
 * within about 4.5 % a round, and where they scatter more, a fourth round narrows each half-width
 * by about 15 % (√(3/4), the moderated t nearly the same), which brings the median under the 6 %
 * a ranking that decides needs.
 */
export const TARGET_MEDIAN_HALF_WIDTH = 0.05;

/** The ranked rows' interval half-widths (rows with one round have none). */
export const halfWidths = (s: Standings): number[] => s.rows.filter(
  (r) => isRanked(r) && (r.interval as Interval).n > 1,
).map((r) => halfWidth(r.interval as Interval));

export interface Standings {
  /** Rows with at least one counting round, cheapest median first; then rows with none. Ranked: those with an interval and MIN_COUNTING_ROUNDS. */
  rows: RowStanding[];
  /** Each ranked row against the next dearer one. */
  neighbours: Array<{ cheaper: string; dearer: string } & RatioVerdict>;
  /** Every ranked pair (a cheaper by median than b). */
  pairs: Array<{ a: string; b: string } & RatioVerdict>;
}

type Collected = Map<string, Array<Omit<RoundRun, "micros"> & { figure: RoundFigure }>>;

/** Each product's runs that belong to a round at `share` of its knee, each with its raw figure and its figure at the sitting's median speed. */
function collectRounds(results: BenchResults, share: number): Collected {
  const sitting = sittingSpeed(results);
  const byProduct: Collected = new Map();
  for (const run of results.runs) {
    if (run.round === undefined || loadShareOf(run) !== share) continue;
    const raw = run.throughput?.cpuMicrosPerInference ?? 0;
    const entry = { round: run.round, run, counts: countsAsResult(run) && raw > 0, figure: { raw, corrected: driftCorrected(run, sitting) ?? raw } };
    byProduct.set(run.product, [...(byProduct.get(run.product) ?? []), entry]);
  }
  for (const list of byProduct.values()) list.sort((a, b) => a.round - b.round);
  return byProduct;
}

const choiceOf = (collected: Collected): DriftChoice => driftChoice([...collected.values()].map((list) => list.filter((r) => r.counts).map((r) => r.figure)));

/** Each product's rounds at `share`, each with the figure the sitting ranks by: at its median speed or raw (driftChoice). */
function roundRuns(results: BenchResults, share: number): Map<string, RoundRun[]> {
  const collected = collectRounds(results, share);
  const { corrected } = choiceOf(collected);
  const out = new Map<string, RoundRun[]>();
  for (const [product, list] of collected) out.set(product, list.map(({ figure, ...r }) => ({ ...r, micros: corrected ? figure.corrected : figure.raw })));
  return out;
}

/** Whether the rounds at `share` are taken to the sitting's median speed, with the spreads that decided it (drift.ts). */
export function roundsDrift(results: BenchResults, share: number = rankingShare(results)): DriftChoice {
  return choiceOf(collectRounds(results, share));
}

function rowStanding(product: string, rounds: RoundRun[]): RowStanding {
  const rate = (rounds[rounds.length - 1] as RoundRun).run.settings.offeredRate;
  // A round that kept up at a rate the row later left is still a clean window at a rate it sustained there: it counts.
  const byRound = new Map<number, number>();
  // One figure a round: a round run again (never planned, but a merged results set may hold two) keeps its last counting run.
  for (const r of rounds) if (r.counts) byRound.set(r.round, r.micros);
  return { product, rate, rounds, byRound };
}

/** Each row's interval, the rows' variances read together (intervals.ts' medianIntervals). */
function withIntervals(rows: RowStanding[]): void {
  const intervals = medianIntervals(new Map(rows.map((r) => [r.product, [...r.byRound.values()]])));
  for (const row of rows) {
    const interval = intervals.get(row.product);
    if (interval !== undefined) row.interval = interval;
  }
}

/** Every pair of ranked rows (`ranked` cheapest first), dearer ÷ cheaper paired by round, the pairs' variances read together. */
function pairVerdicts(ranked: readonly RowStanding[]): Standings["pairs"] {
  const keyed = ranked.flatMap((a, i) => ranked.slice(i + 1).map((b) => ({ a, b, ratios: pairedRatios(b.byRound, a.byRound) })));
  const intervals = medianIntervals(new Map(keyed.map((p, i) => [i, p.ratios])));
  return keyed.map(({ a, b }, i) => ({
    a: a.product, b: b.product, ...ratioVerdict(intervals.get(i), SAME_MARGIN, { a: b.interval, b: a.interval }),
  }));
}

/** Rank ranges from every pair's verdict: a row is told apart only from rows DIFFERENT from it. */
function withRanks(rows: RowStanding[], pairs: Standings["pairs"]): void {
  const ranked = rows.filter(isRanked);
  for (const row of ranked) {
    const different = pairs.filter((p) => p.verdict === "DIFFERENT" && (p.a === row.product || p.b === row.product));
    const cheaper = different.filter((p) => p.b === row.product).length;
    const dearer = different.filter((p) => p.a === row.product).length;
    row.ranks = { best: 1 + cheaper, worst: ranked.length - dearer };
  }
}

/** The row has enough counting rounds to be ranked. */
export const isRanked = (r: RowStanding): boolean => r.interval !== undefined && r.byRound.size >= MIN_COUNTING_ROUNDS;

/** The standings of the rounds at `share` of each row's knee: by default the ones the ranking reads. */
export function standings(results: BenchResults, share: number = rankingShare(results)): Standings {
  const rows = [...roundRuns(results, share)].map(([product, rounds]) => rowStanding(product, rounds));
  withIntervals(rows);
  rows.sort((a, b) => (a.interval?.median ?? Infinity) - (b.interval?.median ?? Infinity) || a.product.localeCompare(b.product));
  const ranked = rows.filter(isRanked);
  const pairs = pairVerdicts(ranked);
  withRanks(rows, pairs);
  const neighbours = ranked.slice(1).map((dearer, i) => {
    const cheaper = ranked[i] as RowStanding;
    const pair = pairs.find((p) => p.a === cheaper.product && p.b === dearer.product) as Standings["pairs"][number];
    return { cheaper: cheaper.product, dearer: dearer.product, ratio: pair.ratio, verdict: pair.verdict };
  });
  return { rows, neighbours, pairs };
}

/** The rows with an UNKNOWN neighbour: where another round can still change what the page may say. */
export function unresolvedRows(s: Standings): string[] {
  const rows = new Set<string>();
  for (const n of s.neighbours) {
    if (n.verdict !== "UNKNOWN") continue;
    rows.add(n.cheaper);
    rows.add(n.dearer);
  }
  return [...rows];
}

/** "3" or "3–5". */
export const rankLabel = (r: RowStanding): string =>
  r.ranks === undefined ? "–" : r.ranks.best === r.ranks.worst ? String(r.ranks.best) : `${r.ranks.best}–${r.ranks.worst}`;
