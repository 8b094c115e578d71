/**
 * The page's answer, first: the rows that count ranked by what they cost per inference, with
 * their spread, and one line on what limits the comparison (rows not run here and rows whose
 * figures do not count, each with why). A reader comes for "which costs least".
 */
import type { BenchResults, RunResult, SweepRecord } from "../results/types.ts";
import { dec2, int, table } from "./format.ts";
import { NATIVE_FLOOR, type RankedFigure } from "./framework-adds.ts";
import { countsAsResult, productLabel, runMark, spreadOf } from "./rows.ts";
import { percent, repeatPairs, summariseRepeats } from "./repeats.ts";
import { hasTimedRuns, microsAtReference } from "./speed.ts";
import { budgetLine, hasRounds, howSureLine, roundCells, tooFewRounds } from "./rounds.ts";
import { rankingShare, shareLabel } from "../rounds/load-share.ts";
import { sittingSpeed, type DriftChoice } from "../rounds/drift.ts";
import { roundsDrift } from "../rounds/standing.ts";
import { sweepOf } from "../results/sweeps.ts";

export interface RankedRow {
  run: RunResult;
  rate: number;
  runs: number;
  micros: { min: number; median: number; max: number };
  rowsPerCore: { min: number; median: number; max: number };
  atReference?: number;
  /** The row's median µs over the native floor's, each as ranked here (at its knee, or at the rate it ran), when the page has one. */
  timesNative?: number;
  /** The knee search's bracket and knee at the reference speed, when the row's rate is a searched knee. */
  knee?: Pick<SweepRecord, "bracket" | "kneeAtReference">;
}

/**
 * Rows that count, cheapest first by median µs CPU per inference: over their rounds at the knee
 * when the results hold rounds (page/rounds.ts), else over their counting runs at the row's rate.
 */
export function rankRows(results: BenchResults, measured: readonly RunResult[]): RankedRow[] {
  const rounds = hasRounds(results) ? roundCells(results) : undefined;
  const ranked = measured
    .filter((run) => (rounds === undefined ? countsAsResult(run) : rounds.has(run.product)))
    .map((run): RankedRow => {
      const t = run.throughput!;
      const spread = spreadOf(results, run);
      const atReference = spread?.cpuMicrosAtReference?.median ?? microsAtReference(run);
      const interval = rounds?.get(run.product)?.interval;
      const micros = interval !== undefined ? { min: interval.low, median: interval.median, max: interval.high }
        : spread?.cpuMicrosPerInference ?? { min: t.cpuMicrosPerInference, median: t.cpuMicrosPerInference, max: t.cpuMicrosPerInference };
      return {
        run,
        rate: run.settings.offeredRate,
        runs: spread?.runs ?? 1,
        micros,
        rowsPerCore: spread?.rowsPerCore ?? { min: t.rowsPerCore, median: t.rowsPerCore, max: t.rowsPerCore },
        ...(atReference !== undefined ? { atReference } : {}),
        ...kneeOf(results, run),
      };
    })
    .sort((a, b) => a.micros.median - b.micros.median);
  const native = ranked.find((r) => r.run.floorFor === NATIVE_FLOOR);
  if (native === undefined || !(native.micros.median > 0)) return ranked;
  return ranked.map((r) => ({ ...r, timesNative: r.micros.median / native.micros.median }));
}

/** The search's knee figures for a row ranked at its knee, or at a load share of it in rounds. */
function kneeOf(results: BenchResults, run: RunResult): Pick<RankedRow, "knee"> {
  const atShare = results.rounds?.loadShare !== undefined;
  const sweep = results.sweeps?.find((s) => s.product === run.product && (atShare || s.knee === run.settings.offeredRate));
  return sweep?.bracket !== undefined
    ? { knee: { bracket: sweep.bracket, ...(sweep.kneeAtReference !== undefined ? { kneeAtReference: sweep.kneeAtReference } : {}) } }
    : {};
}

/** "120,000–130,000": where the knee lies; "≥ 120,000" when nothing above it saturated. */
function bracketCell(r: RankedRow): string {
  const b = r.knee?.bracket;
  if (b === undefined) return "–";
  return b.saturated !== undefined ? `${int(b.keptUp)}–${int(b.saturated)}` : `≥ ${int(b.keptUp)}`;
}

/** "120,000–130,000 (132,100 @ ref)": where the knee lies, and the knee at the reference speed. */
function kneeCell(r: RankedRow): string {
  const bracket = bracketCell(r);
  return r.knee?.kneeAtReference !== undefined ? `${bracket} (${int(r.knee.kneeAtReference)} @ ref)` : bracket;
}

/** Each ranked row's median figure by product, for the sections that read rows against a floor at their knees. */
export function rankedFigures(results: BenchResults, measured: readonly RunResult[]): Map<string, RankedFigure> {
  return new Map(rankRows(results, measured).map((r) => [r.run.product, { rate: r.rate, micros: r.micros.median, runs: r.runs, startedAt: r.run.startedAt }]));
}

/** A row that republishes without scoring: flagged by its product, or (older results) an audit that found no score to check. */
export const isCeiling = (run: RunResult): boolean => run.passthrough ?? (run.delivery !== undefined && run.delivery.scoresChecked === 0);

const range = (x: { min: number; max: number }, f: (n: number) => string): string => (x.min === x.max ? f(x.min) : `${f(x.min)}–${f(x.max)}`);

/** First sentence of a reason, short enough for one line. */
function firstClause(reason: string): string {
  const line = reason.split("\n")[0] as string;
  const cut = line.search(/[.;—]\s/);
  return atMost140(cut > 0 ? line.slice(0, cut) : line);
}

function atMost140(text: string): string {
  const trimmed = text.trim();
  return trimmed.length > 140 ? `${trimmed.slice(0, 137)}…` : trimmed;
}

/**
 * Why a measured row is not ranked: a knee search that found no knee says why it stopped (its last run's mark alone reads as if the row had been run at one
 * rate); any other row, its run's mark.
 */
function notRankedBecause(results: BenchResults, run: RunResult): string {
  const search = sweepOf(results, run.product);
  if (search !== undefined && search.knee === undefined) return `no knee: ${atMost140(search.stoppedBecause.replace(/\.\s*$/, ""))}`;
  return firstClause(runMark(run) ?? "does not count");
}

const TIMES_NATIVE_NOTE =
  "× native floor: the row's median µs per inference over the native row's, each as ranked above (after a knee search, at the same share of its own " +
    "knee; at the rate it ran otherwise): what the row costs as a multiple of what the machine needs for the same work. Below a knee a row carries more " +
    "fixed cost per record, so a fixed-rate page compares rows at different distances from their knees; the knee search's page, every row at one share " +
    "of its own knee, is the fair one.";

const KNEE_BRACKET_NOTE =
  "knee bracket: the knee (the highest rate that kept up and held on a repeat) and the lowest rate above it that saturated (after a drain, at most the rate " +
    "it drained at, unless a paced step kept up at that rate); ≥ when nothing above it saturated (gendata or the search's maximum bounded it). @ ref: the " +
    "knee × 650,000 ÷ the speed index of its runs, this host's knee at the index's reference speed (no two-host test has shown it carries to another host).";

/** The note under the rounds' ranking: what the knee is, and where the ranked figure was taken. */
function roundsKneeNote(share: number): string {
  const where = share === 1
    ? "every round runs the row there again"
    : `every round runs the row at ${shareLabel(share)}, where it keeps up round after round, and the ranked figure is taken there`;
  return (
    `knee bracket: the knee (the highest rate that kept up in the knee search: the row's capacity on one partition; ${where}) and the lowest rate ` +
    "above it that saturated (after a drain, at most the rate it drained at, unless a paced step kept up at that rate); ≥ when nothing above it " +
    "saturated (gendata bounded it). A knee is one search's, not repeated: unlike the ranked figure it has no interval, and the host's slow phases " +
    "move it by a bracket step or more from one sitting to the next (docs/method.md, How far a search repeats itself)."
  );
}

/** The ranking over rounds: shared ranks, each figure with its interval, the verdict against the next row. */
function roundsRankingTable(results: BenchResults, ranked: readonly RankedRow[]): string[] {
  const cells = roundCells(results);
  const withNative = ranked.some((r) => r.timesNative !== undefined);
  const share = rankingShare(results);
  const header = [
    "rank",
    "product",
    "knee bracket/s",
    share === 1 ? "µs CPU / inference at the knee, median [95 % interval]" : `µs CPU / inference at ${shareLabel(share)}, median [95 % interval]`,
    "rounds counted",
    "against the next row",
    ...(withNative ? ["× native floor"] : []),
    "rows/s per core",
  ];
  const rows = ranked.map((r) => {
    const c = cells.get(r.run.product);
    return [
      c?.rank ?? "–", `${productLabel(r.run)}${isCeiling(r.run) ? " (ceiling: no decode, no model)" : ""}`, bracketCell(r),
      c?.micros ?? "–", c?.rounds ?? "–", c?.next ?? "–",
      ...(withNative ? [r.timesNative !== undefined ? `${r.timesNative.toFixed(2)}×` : "–"] : []),
      int(1e6 / r.micros.median),
    ];
  });
  return [table(header, rows)];
}

/** The ranking; the × native floor column only when the page has a native floor to divide by. */
function rankingTable(ranked: readonly RankedRow[]): string[] {
  const withNative = ranked.some((r) => r.timesNative !== undefined);
  const withKnee = ranked.some((r) => r.knee !== undefined);
  const header = [
    "rank",
    "product",
    "at rate/s",
    ...(withKnee ? ["knee bracket/s"] : []),
    "µs CPU / inference (median, range)",
    "µs @ ref",
    ...(withNative ? ["× native floor"] : []),
    "rows/s per core (median, range)",
    "runs",
  ];
  const rows = ranked.map((r, i) => [
    String(i + 1), `${productLabel(r.run)}${isCeiling(r.run) ? " (ceiling: no decode, no model)" : ""}`, int(r.rate), ...(withKnee ? [kneeCell(r)] : []),
    `${dec2(r.micros.median)} (${range(r.micros, dec2)})`, r.atReference !== undefined ? dec2(r.atReference) : "–",
    ...(withNative ? [r.timesNative !== undefined ? `${r.timesNative.toFixed(2)}×` : "–"] : []),
    `${int(r.rowsPerCore.median)} (${range(r.rowsPerCore, int)})`, String(r.runs),
  ]);
  return [table(header, rows)];
}

/**
 * How far the ranking's figures repeat on this machine: the knee searches' own steps run again at
 * one rate (repeats.ts). A reader choosing between two rows needs it: on a host whose speed moves
 * between minutes, two rows a few per cent apart are not told apart.
 */
function repeatLine(results: BenchResults): string[] {
  // Only the spread is read here, not the count over a bound, so the bound is 0.
  const summary = summariseRepeats(repeatPairs(results.sweeps ?? []), 0);
  if (summary.costSpreadMedian === undefined || summary.costSpreadMax === undefined) return [];
  const pairs = `${summary.costPairs} ${summary.costPairs === 1 ? "time" : "times"}`;
  return [
    `How far these figures repeat here: ${pairs} a knee search ran a step again at the same rate minutes later and both kept up, µs per inference moved by ` +
      `${percent(summary.costSpreadMedian)} in the median pair and ${percent(summary.costSpreadMax)} at the most (\`bench repeats\`); rows closer than that ` +
      `are not told apart on this machine.`,
    "",
  ];
}

/** Whether the rounds were taken to the sitting's median speed, and the spreads that decided it. */
export function driftNote(choice: DriftChoice): string {
  const spreads = choice.spreadRaw !== undefined && choice.spreadCorrected !== undefined
    ? ` (a row's rounds spread by ${percent(choice.spreadRaw)} raw and ${percent(choice.spreadCorrected)} at the median speed, pooled over the rows)`
    : "";
  const scaled = "each round's µs × its own speed index ÷ the sitting's median";
  return choice.corrected
    ? `Each round's µs is taken to the sitting's median speed index (${scaled}), since that brings each row's rounds closer together here${spreads}; ` +
        "the figures stay in this host's units, and compare with another host's raw, host named."
    : `Each round's µs is raw: taking it to the sitting's median speed index (${scaled}) would spread each row's rounds further apart here${spreads}, ` +
        "so the index did not follow this host's drift. Compare with another host's raw, host named.";
}

/** What the rounds' ranked figure is: where it was taken, over which rounds, in which units. */
function roundsFigureNote(results: BenchResults): string {
  const share = rankingShare(results);
  const where = share === 1 ? "at the row's knee" : `at ${shareLabel(share)} (${share} of the row's knee, the same share for every row)`;
  const units = sittingSpeed(results) !== undefined ? ` ${driftNote(roundsDrift(results, share))}` : "";
  return (
    `Lower is better: CPU of the product's whole process tree per record consumed, ${where}, over the rounds in which it kept up there (the Rounds ` +
    "section shows every round). against the next row: the next row's figure over this one's, paired by round, with its 95 % interval; cheaper when " +
    "that interval lies wholly above 1.05, the same when wholly within ±5 %, not told apart otherwise. rows/s per core: 1,000,000 ÷ the median µs. Same " +
    `data, model, fetch settings and decode work for every row; each row's deviations are under Notes.${units}`
  );
}

/** A file with no timed run ranks nothing: what it holds instead, by its sections' headings. */
function noTimedRuns(results: BenchResults): string {
  const held = [
    results.faults?.length ? "Faults (kill -9 among poison pills)" : undefined,
    results.brokerRestarts?.length ? "Broker restarts" : undefined,
    results.serverKills?.length ? "Model server kills" : undefined,
    results.overloads?.length ? "Overload" : undefined,
  ].filter((s): s is string => s !== undefined);
  const what = held.length > 0 ? `: it holds fault scenarios, below (${held.join("; ")})` : "";
  return `No row's cost was timed on this page, so none is ranked${what}. The main command (\`bash scripts/bench.sh\`) ranks the rows.`;
}

export function answerSection(results: BenchResults, measured: readonly RunResult[], notRun: readonly RunResult[]): string[] {
  const ranked = rankRows(results, measured);
  const out = ["## Which costs least", ""];
  if (!hasTimedRuns(results)) {
    out.push(noTimedRuns(results), "");
  } else if (ranked.length === 0) {
    out.push("No row counts as a result on this page (see the marks in the throughput table).", "");
  } else if (hasRounds(results)) {
    out.push(...howSureLine(results), ...roundsRankingTable(results, ranked), "");
    out.push(roundsFigureNote(results), "");
    if (ranked.some((r) => r.timesNative !== undefined)) out.push(TIMES_NATIVE_NOTE, "");
    out.push(roundsKneeNote(rankingShare(results)), "", ...budgetLine(results));
  } else {
    out.push(...rankingTable(ranked), "");
    out.push(
      "Lower is better: CPU of the product's whole process tree per record consumed, at the row's knee where it was swept (every counting run there: the " +
        "knee's and its confirm repeat), else at the rate it was run. Same data, model, fetch settings and decode work for every row; each row's deviations " +
        "are under Notes.",
      "",
    );
    if (ranked.some((r) => r.timesNative !== undefined)) out.push(TIMES_NATIVE_NOTE, "");
    if (ranked.some((r) => r.knee !== undefined)) out.push(KNEE_BRACKET_NOTE, "");
    out.push(...repeatLine(results));
  }
  const few = hasRounds(results) ? tooFewRounds(results) : new Map<string, string>();
  const limits = [
    ...notRun.map((r) => `${r.product} (${r.status === "failed" ? "failed" : "not run here"}: ${firstClause(r.reason ?? "no reason recorded")})`),
    ...measured.filter((r) => !ranked.some((x) => x.run === r)).map((r) => `${r.product} (${few.get(r.product) ?? notRankedBecause(results, r)})`),
  ];
  if (limits.length > 0) out.push(`Not in the ranking: ${limits.join("; ")}.`, "");
  return out;
}
