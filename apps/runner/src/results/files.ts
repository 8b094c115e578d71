import { readFileSync, writeFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { resources, throughput } from "../metrics/derive.ts";
import { judgeConditions } from "../run/judge.ts";
import { overloadFigures } from "../faults/overload-figures.ts";
import { DEFAULT_GUARANTEE, type Guarantee } from "@bench/core";
import { modelOfResults } from "./model.ts";
import type { BenchResults, OverloadResult, RunResult } from "./types.ts";

/**
 * One results file as written, plain or gzipped (`.json.gz`): the committed sittings keep theirs
 * gzipped so that a fresh clone stays light, and every reader reads both the same way.
 */
export function readResultsFile(path: string): BenchResults {
  const bytes = readFileSync(path);
  const text = path.endsWith(".gz") ? gunzipSync(bytes).toString("utf8") : bytes.toString("utf8");
  return JSON.parse(text) as BenchResults;
}

export function writeResults(path: string, results: BenchResults): void {
  writeFileSync(path, `${JSON.stringify(results, null, 1)}\n`);
}

/**
 * The derived figures and the run's conditions again from its raw ticks and speed readings, with
 * this code's definitions and bounds, so that a page merged from results of different days computes
 * and judges every row the same way.
 */
export function rederive(run: RunResult): RunResult {
  const window = run.ticks.filter((t) => t.phase === "window");
  if (run.status !== "ok" || !run.throughput || window.length < 2) return run;
  const t = { ...throughput(window), extraRecordsPerRecord: run.throughput.extraRecordsPerRecord };
  const c = run.conditions;
  // Judged again by this code's bounds too: a run they call noisy is not shown as a result.
  const conditions = c?.speedIndexReference !== undefined
    ? judgeConditions(window, { before: c.speedIndexBefore, after: c.speedIndexAfter, reference: c.speedIndexReference, version: c.speedIndexVersion ?? 1 })
    : c;
  return {
    ...run,
    throughput: t,
    resources: resources(window),
    selectivity: t.consumedPerSec > 0 ? t.outputPerSec / t.consumedPerSec : 0,
    ...(conditions ? { conditions } : {}),
  };
}

/** A run judged before runs kept their reference was judged against its file's. */
function withReference(run: RunResult, reference: number | undefined): RunResult {
  if (!run.conditions || run.conditions.speedIndexReference !== undefined || reference === undefined) return run;
  return { ...run, conditions: { ...run.conditions, speedIndexReference: reference } };
}

/**
 * Reads one or more results files into one page's worth (host and broker of the first). A
 * product measured again in a later file replaces its runs and sweep from the earlier ones, and
 * a later fault run (`--faults`, a file of its own) its earlier fault run, broker restarts and server kills.
 */
export function readResults(paths: string[]): BenchResults {
  return mergeResults(paths.map((p) => readChecked(p)), paths);
}

/**
 * Reads results files that may hold rows of more than one model, guarantee or serving: one merged set per
 * model, guarantee and serving, in the order they first appear (a product under one never replaces its runs
 * under another).
 */
export function readResultSets(paths: string[]): BenchResults[] {
  const bySet = new Map<string, Array<{ path: string; results: BenchResults }>>();
  for (const path of paths) {
    const results = readChecked(path);
    const key = `${modelName(results)} ${guaranteeOf(results)} ${servingOf(results)}`;
    bySet.set(key, [...(bySet.get(key) ?? []), { path, results }]);
  }
  return [...bySet.values()].map((files) => mergeResults(files.map((f) => f.results), files.map((f) => f.path)));
}

/** The name of the model a results file's rows ran. */
export const modelName = (results: BenchResults): string => modelOfResults(results).name;

/** Whether a results file's rows called a model server (files from before the option ran embedded). */
export const servingOf = (results: BenchResults): "embedded" | "served" => (results.serving ? "served" : "embedded");

/** The guarantee a results file's rows ran under (files from before the option ran at-least-once). */
export const guaranteeOf = (results: BenchResults): Guarantee => results.guarantee ?? DEFAULT_GUARANTEE;

function readChecked(path: string): BenchResults {
  const parsed = readResultsFile(path);
  if (parsed.schema !== 1 && parsed.schema !== 2) throw new Error(`${path} is not a bench results file (schema ${String(parsed.schema)})`);
  return { ...parsed, runs: parsed.runs.map((r) => withReference(r, parsed.speedIndexReference)) };
}

function mergeResults(all: BenchResults[], paths: readonly string[]): BenchResults {
  const models = [...new Set(all.map(modelName))];
  if (models.length > 1) {
    throw new Error(`${paths.join(", ")} hold rows of different models (${models.join(", ")}): one page's rows run one model; render shows two side by side`);
  }
  const guarantees = [...new Set(all.map(guaranteeOf))];
  if (guarantees.length > 1) {
    throw new Error(
      `${paths.join(", ")} hold rows of different guarantees (${guarantees.join(", ")}): one ranking's rows run one; render shows both side by side`,
    );
  }
  const servings = [...new Set(all.map(servingOf))];
  if (servings.length > 1) {
    throw new Error(`${paths.join(", ")} hold rows both embedded and served: one ranking's rows run one way; render shows both side by side`);
  }
  const [first, ...rest] = all;
  if (!first) throw new Error("no results files given");
  let merged: BenchResults = { ...first, runs: first.runs.map(rederive), sweeps: first.sweeps ?? [] };
  for (const later of rest) {
    const remeasured = new Set(later.runs.map((r) => r.product));
    const refaulted = new Set((later.faults ?? []).map((f) => f.product));
    const faults = [...(merged.faults ?? []).filter((f) => !refaulted.has(f.product)), ...(later.faults ?? [])];
    const restarted = new Set((later.brokerRestarts ?? []).map((r) => r.product));
    const brokerRestarts = [...(merged.brokerRestarts ?? []).filter((r) => !restarted.has(r.product)), ...(later.brokerRestarts ?? [])];
    const killed = new Set((later.serverKills ?? []).map((r) => r.product));
    const serverKills = [...(merged.serverKills ?? []).filter((r) => !killed.has(r.product)), ...(later.serverKills ?? [])];
    const overloaded = new Set((later.overloads ?? []).map((r) => r.product));
    const overloads = [...(merged.overloads ?? []).filter((r) => !overloaded.has(r.product)), ...(later.overloads ?? [])];
    merged = {
      ...merged,
      runs: [...merged.runs.filter((r) => !remeasured.has(r.product)), ...later.runs.map(rederive)],
      sweeps: [...(merged.sweeps ?? []).filter((s) => !remeasured.has(s.product)), ...(later.sweeps ?? [])],
      ...(faults.length > 0 ? { faults } : {}),
      ...(brokerRestarts.length > 0 ? { brokerRestarts } : {}),
      ...(overloads.length > 0 ? { overloads } : {}),
      ...(serverKills.length > 0 ? { serverKills } : {}),
    };
  }
  return { ...merged, ...(merged.overloads ? { overloads: merged.overloads.map(rederiveOverload) } : {}) };
}

/** An overload's figures read again from its ticks by this code (faults/overload-figures.ts). */
function rederiveOverload(run: OverloadResult): OverloadResult {
  if (!run.burst || run.ticks.length === 0) return run;
  const { baselineMemMb: _m, peakMemMb: _p, burstOfferedPerSec: _b, backlogAfterBurst: _a, workedOffSec: _w, backlogBaseline: _l, ...kept } = run;
  return { ...kept, ...overloadFigures(run.ticks, { burstFromSec: run.burst.fromSec, burstToSec: run.burst.toSec, rate: run.settings.offeredRate }) };
}
