/**
 * The page's rounds: how sure the ranking is. Each row's µs CPU per inference at the sitting's load
 * share of its knee (at the knee in older results) is the median over its rounds with a 95 % interval; rows are told apart only where their ratio, paired
 * by round, lies wholly outside ±5 % (rounds/intervals.ts), and rows not told apart share a rank.
 */
import type { BenchResults } from "../results/types.ts";
import { halfWidth, SAME_MARGIN, type Interval } from "../rounds/intervals.ts";
import {
  halfWidths, isRanked, MIN_COUNTING_ROUNDS, rankLabel, roundsDrift, standings, TARGET_MEDIAN_HALF_WIDTH, WIDE_HALF_WIDTH, type RowStanding, type Standings,
} from "../rounds/standing.ts";
import { sittingSpeed } from "../rounds/drift.ts";
import { median } from "../metrics/stats.ts";
import { dec2, int, table } from "./format.ts";
import { runMark } from "./rows.ts";
import { MOVE_DOWN_SHARE } from "../rounds/knee-moves.ts";
import { rankingShare, roundOneInSearch, shareLabel } from "../rounds/load-share.ts";
import { percent } from "./repeats.ts";
import { timeSpentPhrase } from "./time-spent.ts";
import { sweepOf } from "../results/sweeps.ts";

/** The results hold rounds: the ranking reads them. */
export const hasRounds = (results: BenchResults): boolean => results.runs.some((r) => r.round !== undefined);

/** "12.30 [11.90–12.80]". */
export const intervalCell = (i: Interval): string => (i.n === 1 ? `${dec2(i.median)} (one round)` : `${dec2(i.median)} [${dec2(i.low)}–${dec2(i.high)}]`);

/**
 * Why a row has no ranked figure in a table of two results sets side by side: too few counting
 * rounds, a knee search that found no knee, a run that failed or was invalid, or not run at all.
 */
export function unrankedCell(results: BenchResults, row: RowStanding | undefined, product: string): string {
  if (row !== undefined) return `not ranked (${row.byRound.size} of ${row.rounds.length} rounds counting)`;
  const search = sweepOf(results, product);
  if (search !== undefined && search.knee === undefined) return "not ranked: its knee search found no knee";
  const failed = results.runs.find((r) => r.product === product && (r.status === "failed" || r.status === "invalid"));
  return failed ? `${failed.status}: ${failed.reason?.split("\n")[0] ?? "no reason"}` : "not run";
}


/** The verdict against the next dearer row, as the ranking's last column says it. */
function nextCell(s: Standings, row: RowStanding): string {
  const n = s.neighbours.find((x) => x.cheaper === row.product);
  if (n === undefined) return "–";
  const unpaired = n.ratio?.method === "unpaired" ? ", unpaired: too few rounds in common" : "";
  const ratio =
    n.ratio === undefined || n.ratio.n < 2 ? "" : ` (×${n.ratio.median.toFixed(2)} [${n.ratio.low.toFixed(2)}–${n.ratio.high.toFixed(2)}]${unpaired})`;
  const word = n.verdict === "DIFFERENT" ? "cheaper than" : n.verdict === "SAME" ? "the same as" : "not told apart from";
  return `${word} ${n.dearer}${ratio}`;
}

/** Per ranked product: its rank range, its figure, rounds counted and the verdict against the next row. */
export function roundCells(results: BenchResults): Map<string, { rank: string; micros: string; rounds: string; next: string; interval: Interval }> {
  const s = standings(results);
  const cells = new Map<string, { rank: string; micros: string; rounds: string; next: string; interval: Interval }>();
  for (const row of s.rows) {
    if (!isRanked(row) || row.interval === undefined) continue;
    cells.set(
      row.product,
      {
        rank: rankLabel(row),
        micros: intervalCell(row.interval),
        rounds: `${row.byRound.size} of ${row.rounds.length}`,
        next: nextCell(s, row),
        interval: row.interval,
      },
    );
  }
  return cells;
}

/** One sentence above the table: what the intervals and shared ranks mean. */
export function howSureLine(results: BenchResults): string[] {
  const s = standings(results);
  const ranked = s.rows.filter(isRanked);
  if (ranked.length === 0) return [];
  const widths = halfWidths(s);
  const ties = ranked.filter((r) => r.ranks !== undefined && r.ranks.best !== r.ranks.worst).length;
  const width = widths.length > 0 ? ` (half-widths ${percent(Math.min(...widths))}–${percent(Math.max(...widths))}, median ${percent(median(widths))})` : "";
  const where = shareLabel(rankingShare(results));
  const moderatedNote = ranked.some((r) => r.interval?.method === "moderated t on logs")
    ? ": a t-interval on the logs of its rounds whose spread is read against every row's (a moderated t), so three rounds that agree by chance " +
      "are not taken as surer than the sitting's rows are, nor three that scatter as less sure"
    : "";
  return [
    `How sure: each row's figure is the median of its rounds at ${where}, rows measured once a round in a fresh random order over the sitting, ` +
      `with a 95 % interval in brackets${width}${moderatedNote}; two rows are ranked apart only when the ratio of their figures, paired round by round, ` +
      `is surely more than ${SAME_MARGIN * 100} % from 1, and rows not told apart share a rank such as 3–5 (${ties} of ${ranked.length} rows do here). ` +
      "An interval says how sure this sitting is of its row on this host as it ran, not where a later sitting lands: on one shared host, " +
      "sittings hours apart have moved the rows together by more than their intervals while their order held (docs/method.md, Calibration).",
    "",
  ];
}

/** Rows that kept up at their knee in too few rounds to be ranked, with each round's mark. */
export function tooFewRounds(results: BenchResults): Map<string, string> {
  const rows = standings(results).rows.filter((r) => !isRanked(r));
  return new Map(
    rows.map((r) => [
      r.product, `kept up at its rounds' rate in ${r.byRound.size} of ${r.rounds.length} rounds, fewer than ${MIN_COUNTING_ROUNDS}: see Rounds`,
    ]),
  );
}

/** The budget, the rounds each row got and what stayed unresolved. */
export function budgetLine(results: BenchResults): string[] {
  const r = results.rounds;
  if (r === undefined) return [];
  const min = (sec: number): string => (sec / 60).toFixed(1);
  const s = standings(results);
  const counts = new Map<number, string[]>();
  for (const row of s.rows) counts.set(row.rounds.length, [...(counts.get(row.rounds.length) ?? []), row.product]);
  const got = [...counts].sort((a, b) => a[0] - b[0]).map(([n, rows]) => `${n} rounds: ${rows.join(", ")}`).join("; ");
  const unknown = s.neighbours.filter((n) => n.verdict === "UNKNOWN").map((n) => `${n.cheaper} / ${n.dearer}`);
  const open = unknown.length > 0
    ? ` Not told apart after the budget: ${unknown.join("; ")}.`
    : " Every pair of neighbouring rows was told apart or found the same.";
  const parts = timeSpentPhrase(results);
  const where = parts === undefined ? "" : ` Where the time went, each run counted from its start to the next run's (so with what followed it: a ` +
    `product's stop, the next row's preparation, start and gate, the model alone): ${parts}.`;
  return [
    `Budget: ${min(r.budgetSec)} min for the knee searches and rounds; they took ${min(r.spentSec)} min (products' first-time preparation, ` +
      `${min(r.prepareSec)} min, is set-up and not counted).${where} ${got}. The rounds stopped because ${r.stoppedBecause}.${open}`,
    "",
  ];
}

/** Every round's window per row: its µs, or why it does not count (a round in which the row did not keep up is shown, never dropped). */
export function roundsSection(results: BenchResults): string[] {
  const s = standings(results);
  if (s.rows.length === 0) return [];
  const share = rankingShare(results);
  const most = Math.max(...s.rows.map((r) => Math.max(...r.rounds.map((x) => x.round))));
  const inSearch = roundOneInSearch(results);
  const header = [
    "product", share === 1 ? "knee/s" : "rate/s", ...Array.from({ length: most }, (_, i) => `round ${i + 1}${i === 0 && inSearch ? " (search)" : ""}`),
  ];
  const rows = s.rows.map((row) => [
    row.product, int(row.rate),
    ...Array.from({ length: most }, (_, i) => {
      const run = row.rounds.filter((x) => x.round === i + 1).at(-1);
      if (run === undefined) return "–";
      const where = run.run.settings.offeredRate === row.rate ? "" : ` at ${int(run.run.settings.offeredRate)}/s`;
      if (run.counts) return `${dec2(run.micros)}${where}`;
      const mark = (runMark(run.run) ?? "does not count").split(" — ")[0];
      return `${run.micros > 0 ? `${dec2(run.micros)} ` : ""}${mark}${where}`;
    }),
  ]);
  const searches = results.rounds?.searchOrder ? [`the knee searches: ${results.rounds.searchOrder.join(", ")}`] : [];
  const order = [...searches, ...(results.rounds?.order ?? []).map((o, i) => `round ${i + 1}: ${o.join(", ")}`)].join("; ");
  const intro = share === 1 ? ROUNDS_AT_KNEE : `${roundsAtShare(share, unitsOf(results, share), inSearch)}${laterRounds(results.rounds?.alwaysRounds)}`;
  return ["## Rounds", "", intro, "", table(header, rows), "", ...(order ? [`Order: ${order}.`, ""] : [])];
}

/** A share as whole percent, as the page's rule texts give them: 0.1 → "10 %". */
const wholePercent = (share: number): string => `${Math.round(share * 100)} %`;

/** Which rows a round after the always-run ones went to (rounds/run-rounds.ts' nextRound); older results do not say. */
function laterRounds(alwaysRounds: number | undefined): string {
  if (alwaysRounds === undefined) return "";
  return (
    ` Rounds 1–${alwaysRounds} ran for every row whatever the budget said. Round ${alwaysRounds + 1} ran, whatever the budget said, for every ` +
    `row when the ranked rows' median half-width was over ±${wholePercent(TARGET_MEDIAN_HALF_WIDTH)} after them, and otherwise for a row that lost ` +
    `one of them or whose interval was wider than ±${wholePercent(WIDE_HALF_WIDTH)} (a make-up round); from round ${alwaysRounds + 1} on, a round ` +
    "ran for rows not yet told apart from a neighbour only while the budget held."
  );
}

/** Older results: their rounds ran at the knee. */
const ROUNDS_AT_KNEE =
  "µs CPU per inference of each row's window at its knee, round by round. Round 1 is the knee search's own window at the knee; each later round starts " +
  "the product again, gates it and measures one window at the knee, rows in a fresh random order each round. A window that did not keep up, was noisy or " +
  "invalid is shown with its mark and does not count. A row that fell behind at its knee in as many rounds as it kept up there moved down for its later " +
  "rounds; a round at a knee it left is shown with its rate, and counts when it kept up there.";

/** How the rounds' µs are given, as the ranking reads them (answer.ts' driftNote says why). */
function unitsOf(results: BenchResults, share: number): string {
  if (sittingSpeed(results) === undefined) return "as measured";
  return roundsDrift(results, share).corrected ? "taken to the sitting's median speed index" : "raw (as measured: the speed index did not follow this host)";
}

function roundsAtShare(share: number, units: string, inSearch: boolean): string {
  const sessions = inSearch
    ? "Round 1 is a window in the knee search's own session once the search has bracketed the knee; each later round starts the product again, gates " +
      "it and measures one window"
    : "Every round, after the knee searches, starts the product again, gates it and measures one window (a row with a cold start works it off first)";
  return (
    `µs CPU per inference of each row's window at ${shareLabel(share)}, round by round, ${units}. ${sessions}, ` +
    "rows in a fresh random order each round. A window that did not keep up, was noisy or invalid is shown with its mark and does not count. A row that " +
    `fell behind at its rate in as many rounds as it kept up there moved ${wholePercent(1 - MOVE_DOWN_SHARE)} down for its later rounds; ` +
    "a round at a rate it left is shown with its rate, and counts when it kept up there."
  );
}
