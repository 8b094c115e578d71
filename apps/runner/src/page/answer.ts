/**
 * The page's answer, first: the rows that count ranked by what they cost per inference, with
 * their spread, and one line on what limits the comparison (rows not run here and rows whose
 * figures do not count, each with why). A reader comes for "which costs least".
 */
import type { BenchResults, RunResult } from "../results/types.ts";
import { dec2, int, table } from "./format.ts";
import { countsAsResult, productLabel, runMark, spreadOf } from "./rows.ts";
import { microsAtReference } from "./speed.ts";

export interface RankedRow {
  run: RunResult;
  rate: number;
  runs: number;
  micros: { min: number; median: number; max: number };
  rowsPerCore: { min: number; median: number; max: number };
  atReference?: number;
}

/** Rows that count, cheapest first by median µs CPU per inference over their counting runs at the row's rate. */
export function rankRows(results: BenchResults, measured: readonly RunResult[]): RankedRow[] {
  return measured
    .filter(countsAsResult)
    .map((run): RankedRow => {
      const t = run.throughput!;
      const spread = spreadOf(results, run);
      const atReference = spread?.cpuMicrosAtReference?.median ?? microsAtReference(run);
      return {
        run,
        rate: run.settings.offeredRate,
        runs: spread?.runs ?? 1,
        micros: spread?.cpuMicrosPerInference ?? { min: t.cpuMicrosPerInference, median: t.cpuMicrosPerInference, max: t.cpuMicrosPerInference },
        rowsPerCore: spread?.rowsPerCore ?? { min: t.rowsPerCore, median: t.rowsPerCore, max: t.rowsPerCore },
        ...(atReference !== undefined ? { atReference } : {}),
      };
    })
    .sort((a, b) => a.micros.median - b.micros.median);
}

/** A row that republishes without scoring: flagged by its product, or (older results) an audit that found no score to check. */
export const isCeiling = (run: RunResult): boolean => run.passthrough ?? (run.delivery !== undefined && run.delivery.scoresChecked === 0);

const range = (x: { min: number; max: number }, f: (n: number) => string): string => (x.min === x.max ? f(x.min) : `${f(x.min)}–${f(x.max)}`);

/** First sentence of a reason, short enough for one line. */
function firstClause(reason: string): string {
  const line = reason.split("\n")[0] as string;
  const cut = line.search(/[.;—]\s/);
  const clause = cut > 0 ? line.slice(0, cut) : line;
  return clause.length > 140 ? `${clause.slice(0, 137)}…` : clause;
}

export function answerSection(results: BenchResults, measured: readonly RunResult[], notRun: readonly RunResult[]): string[] {
  const ranked = rankRows(results, measured);
  const out = ["## Which costs least", ""];
  if (ranked.length === 0) {
    out.push("No row counts as a result on this page (see the marks in the throughput table).", "");
  } else {
    out.push(
      table(
        ["rank", "product", "at rate/s", "µs CPU / inference (median, range)", "µs @ ref", "rows/s per core (median, range)", "runs"],
        ranked.map((r, i) => [
          String(i + 1), `${productLabel(r.run)}${isCeiling(r.run) ? " (ceiling: no decode, no model)" : ""}`, int(r.rate),
          `${dec2(r.micros.median)} (${range(r.micros, dec2)})`, r.atReference !== undefined ? dec2(r.atReference) : "–",
          `${int(r.rowsPerCore.median)} (${range(r.rowsPerCore, int)})`, String(r.runs),
        ]),
      ),
      "",
      "Lower is better: CPU of the product's whole process tree per record consumed, at the row's knee where it was swept (every counting run there: the knee's and its confirm repeat), else at the rate it was run. Same data, model, fetch settings and decode work for every row; each row's deviations are under Notes.",
      "",
    );
  }
  const limits = [
    ...notRun.map((r) => `${r.product} (not run here: ${firstClause(r.reason ?? "no reason recorded")})`),
    ...measured.filter((r) => !countsAsResult(r)).map((r) => `${r.product} (${firstClause(runMark(r) ?? "does not count")})`),
  ];
  if (limits.length > 0) out.push(`Not in the ranking: ${limits.join("; ")}.`, "");
  return out;
}
