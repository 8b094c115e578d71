/**
 * Where a main command's minutes went, from its runs alone: each run's time is from its start to
 * the next run's start (the last run: its own ticks), so it holds its settle, window and drain and
 * what follows before the next run begins (the product's stop, the next row's start, gate and cold
 * start, the speed readings, the model alone's timing). Pure: the budget line reads it.
 */
import type { BenchResults, RunResult } from "../results/types.ts";
import { roundOneInSearch } from "../rounds/load-share.ts";

/** The parts of a sitting, in the order they run: "round 1" and "later rounds" where round 1 was in the searches' sessions, else "rounds". */
export const TIME_PARTS = ["drains", "paced steps", "round 1", "later rounds", "rounds"] as const;
export type TimePart = (typeof TIME_PARTS)[number];

function partOf(run: RunResult, inSearch: boolean): TimePart | undefined {
  // `--also-at-knee` in results whose round 1 was in the search tags the search's own window at the knee as round 1's: it is still a paced step.
  if (run.sweepPurpose === "drain") return "drains";
  if (run.sweepPurpose === "paced") return "paced steps";
  if (run.sweepPurpose !== "round") return undefined;
  if (!inSearch) return "rounds";
  return run.round === 1 ? "round 1" : "later rounds";
}

function tickSpanSec(run: RunResult): number {
  const first = run.ticks[0];
  const last = run.ticks[run.ticks.length - 1];
  return first && last ? last.t - first.t : 0;
}

/** Seconds per part, over the runs that were started (a skipped row has no run time); parts with no run are absent. */
export function timeSpent(results: BenchResults): Map<TimePart, number> {
  const runs = results.runs.filter((r) => r.status !== "skipped").sort((a, b) => a.startedAt.localeCompare(b.startedAt));
  const spent = new Map<TimePart, number>();
  const inSearch = roundOneInSearch(results);
  runs.forEach((run, i) => {
    const part = partOf(run, inSearch);
    if (part === undefined) return;
    const next = runs[i + 1];
    const sec = next ? (Date.parse(next.startedAt) - Date.parse(run.startedAt)) / 1000 : tickSpanSec(run);
    spent.set(part, (spent.get(part) ?? 0) + sec);
  });
  return spent;
}

/** "drains 12.2 min, paced steps 15.4, …", or undefined when no run of the main command's kinds ran. */
export function timeSpentPhrase(results: BenchResults): string | undefined {
  const spent = timeSpent(results);
  const parts = TIME_PARTS.filter((p) => spent.has(p)).map((p, i) => `${p} ${((spent.get(p) ?? 0) / 60).toFixed(1)}${i === 0 ? " min" : ""}`);
  return parts.length > 0 ? parts.join(", ") : undefined;
}
