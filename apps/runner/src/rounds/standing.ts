/**
 * Where each row stands after the rounds: its figure by round, its median and 95 % interval, how
 * it compares with every other row paired by round, and the ranks it may hold. Pure: the bench
 * reads it to spend further rounds where the order is unknown, the page to rank and tie.
 *
 * A round's figure for a row is µs CPU per inference over a window at the row's knee that counts
 * as a result (valid, settled, quiet, kept up); a row whose knee did not hold moved down
 * (knee-moves.ts), and its rounds that kept up at the knee it left count too. Round 1 is the
 * knee search's own window at the knee; every later round is a session of its own (start, gate, one window at the knee), rows in a
 * fresh random order each round, so a slow phase of the host lands on different rows each round.
 */
import type { BenchResults, RunResult } from "../results/types.ts";
import { countsAsResult } from "../page/rows.ts";
import { compareRows, medianInterval, SAME_MARGIN, type Interval, type RatioVerdict } from "./intervals.ts";

export interface RoundRun {
  round: number;
  run: RunResult;
  /** Counts as the row's figure for this round: a result (valid, settled, quiet, kept up). */
  counts: boolean;
}

export interface RowStanding {
  product: string;
  /** The rate of the row's latest round: its knee after the rounds (a row moves down when its knee does not hold). */
  rate: number;
  /** Every round's run, counting or not, in round order. */
  rounds: RoundRun[];
  /** µs CPU per inference by round, of the rounds that count. */
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

export interface Standings {
  /** Rows with at least one counting round, cheapest median first; then rows with none. Ranked: those with an interval and MIN_COUNTING_ROUNDS. */
  rows: RowStanding[];
  /** Each ranked row against the next dearer one. */
  neighbours: Array<{ cheaper: string; dearer: string } & RatioVerdict>;
  /** Every ranked pair (a cheaper by median than b). */
  pairs: Array<{ a: string; b: string } & RatioVerdict>;
}

/** Each product's runs that belong to a round, by product. */
function roundRuns(results: BenchResults): Map<string, RoundRun[]> {
  const byProduct = new Map<string, RoundRun[]>();
  for (const run of results.runs) {
    if (run.round === undefined) continue;
    const counts = countsAsResult(run) && (run.throughput?.cpuMicrosPerInference ?? 0) > 0;
    byProduct.set(run.product, [...(byProduct.get(run.product) ?? []), { round: run.round, run, counts }]);
  }
  for (const list of byProduct.values()) list.sort((a, b) => a.round - b.round);
  return byProduct;
}

function rowStanding(product: string, rounds: RoundRun[]): RowStanding {
  const rate = (rounds[rounds.length - 1] as RoundRun).run.settings.offeredRate;
  // A round that kept up at a knee the row later left is still a clean window at a rate it sustained there: it counts.
  const byRound = new Map<number, number>();
  // One figure a round: a round run again (never planned, but a merged results set may hold two) keeps its last counting run.
  for (const r of rounds) if (r.counts) byRound.set(r.round, r.run.throughput?.cpuMicrosPerInference as number);
  const interval = medianInterval([...byRound.values()]);
  return { product, rate, rounds, byRound, ...(interval ? { interval } : {}) };
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

export function standings(results: BenchResults): Standings {
  const rows = [...roundRuns(results)].map(([product, rounds]) => rowStanding(product, rounds));
  rows.sort((a, b) => (a.interval?.median ?? Infinity) - (b.interval?.median ?? Infinity) || a.product.localeCompare(b.product));
  const ranked = rows.filter(isRanked);
  const pairs: Standings["pairs"] = [];
  ranked.forEach((a, i) =>
    ranked.slice(i + 1).forEach((b) =>
      pairs.push({ a: a.product, b: b.product, ...compareRows(b.byRound, a.byRound, SAME_MARGIN, { a: b.interval, b: a.interval }) }),
    ),
  );
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
