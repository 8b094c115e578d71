/**
 * The raw figures of a results file as Arrow IPC files, so pandas, polars or DuckDB open a run
 * without a parser of their own: every per-second tick, every sweep step and one row per run.
 * Arrow's IPC file holds one table, so these are three files beside results.json.
 *
 * The latency columns are the percentiles results.json keeps (p50 / p99 / max): the audit's
 * HDR histogram is not kept by the runner, so it cannot be exported here.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Bool, Float64, Int32, Table, tableToIPC, Utf8, vectorFromArray, type Vector } from "apache-arrow";
import type { BenchResults, RunResult, SweepStep, Tick } from "./types.ts";
import { describeShares } from "../yardstick/mix.ts";

type Value = number | string | boolean | null;
interface Column<Row> { name: string; type: "f64" | "i32" | "utf8" | "bool"; get: (row: Row) => Value | undefined }

function vector<Row>(rows: Row[], c: Column<Row>): Vector {
  const values = rows.map((r) => c.get(r) ?? null);
  switch (c.type) {
    case "f64": return vectorFromArray(values as (number | null)[], new Float64());
    case "i32": return vectorFromArray(values as (number | null)[], new Int32());
    case "utf8": return vectorFromArray(values as (string | null)[], new Utf8());
    case "bool": return vectorFromArray(values as (boolean | null)[], new Bool());
  }
}

function table<Row>(rows: Row[], columns: Column<Row>[]): Table {
  return new Table(Object.fromEntries(columns.map((c) => [c.name, vector(rows, c)])));
}

interface TickRow { run: number; r: RunResult; tick: Tick }
/** A sweep step, numbered from 1 in its sweep, with the knee the sweep found (the same on every step of it). */
interface StepRow { step: number; product: string; knee: number | undefined; s: SweepStep }

/** Columns that say which run a row belongs to. */
const runKey = <Row>(get: (row: Row) => { run: number; r: RunResult }): Column<Row>[] => [
  { name: "run", type: "i32", get: (x) => get(x).run },
  { name: "product", type: "utf8", get: (x) => get(x).r.product },
  { name: "asked_rate", type: "f64", get: (x) => get(x).r.settings.offeredRate },
  { name: "sweep_purpose", type: "utf8", get: (x) => get(x).r.sweepPurpose },
];

export const TICK_COLUMNS: Column<TickRow>[] = [
  ...runKey<TickRow>((x) => x),
  { name: "t", type: "f64", get: (x) => x.tick.t },
  { name: "phase", type: "utf8", get: (x) => x.tick.phase },
  { name: "input_end", type: "f64", get: (x) => x.tick.inputEnd },
  { name: "consumed", type: "f64", get: (x) => x.tick.consumed },
  { name: "output_end", type: "f64", get: (x) => x.tick.outputEnd },
  { name: "cpu_percent", type: "f64", get: (x) => x.tick.cpuPercent },
  { name: "mem_mb", type: "f64", get: (x) => x.tick.memMb },
  { name: "processes", type: "i32", get: (x) => x.tick.processes },
  { name: "mem_instrument", type: "utf8", get: (x) => x.tick.instrument },
  { name: "foreign_cpu_percent", type: "f64", get: (x) => x.tick.foreignCpuPercent },
  { name: "steal_percent", type: "f64", get: (x) => x.tick.stealPercent },
];

type RunRow = { run: number; r: RunResult };
export const RUN_COLUMNS: Column<RunRow>[] = [
  ...runKey<RunRow>((x) => x),
  { name: "status", type: "utf8", get: (x) => x.r.status },
  { name: "reason", type: "utf8", get: (x) => x.r.reason },
  { name: "started_at", type: "utf8", get: (x) => x.r.startedAt },
  { name: "warmup_sec", type: "f64", get: (x) => x.r.settings.warmupSec },
  { name: "window_sec", type: "f64", get: (x) => x.r.settings.windowSec },
  { name: "parallelism", type: "i32", get: (x) => x.r.settings.parallelism },
  { name: "settled", type: "bool", get: (x) => x.r.settled },
  { name: "settle_sec", type: "f64", get: (x) => x.r.settleSec },
  { name: "regime", type: "utf8", get: (x) => x.r.throughput?.regime },
  { name: "offered_per_sec", type: "f64", get: (x) => x.r.throughput?.offeredPerSec },
  { name: "consumed_per_sec", type: "f64", get: (x) => x.r.throughput?.consumedPerSec },
  { name: "output_per_sec", type: "f64", get: (x) => x.r.throughput?.outputPerSec },
  { name: "lag_drift", type: "f64", get: (x) => x.r.throughput?.lagDrift },
  { name: "cpu_avg", type: "f64", get: (x) => x.r.throughput?.cpuAvg },
  { name: "cpu_p95", type: "f64", get: (x) => x.r.resources?.cpuP95 },
  { name: "mem_avg_mb", type: "f64", get: (x) => x.r.resources?.memAvgMb },
  { name: "mem_max_mb", type: "f64", get: (x) => x.r.resources?.memMaxMb },
  { name: "rows_per_core", type: "f64", get: (x) => x.r.throughput?.rowsPerCore },
  { name: "rows_per_gb", type: "f64", get: (x) => x.r.throughput?.rowsPerGb },
  { name: "cpu_us_per_inference", type: "f64", get: (x) => x.r.throughput?.cpuMicrosPerInference },
  { name: "extra_records_per_record", type: "f64", get: (x) => x.r.throughput?.extraRecordsPerRecord },
  { name: "selectivity", type: "f64", get: (x) => x.r.selectivity },
  { name: "latency_p50_ms", type: "f64", get: (x) => x.r.delivery?.latencyMs?.p50 },
  { name: "latency_p99_ms", type: "f64", get: (x) => x.r.delivery?.latencyMs?.p99 },
  { name: "latency_max_ms", type: "f64", get: (x) => x.r.delivery?.latencyMs?.max },
  { name: "latency_count", type: "f64", get: (x) => x.r.delivery?.latencyMs?.count },
  { name: "produced", type: "f64", get: (x) => x.r.delivery?.produced },
  { name: "lost", type: "f64", get: (x) => x.r.delivery?.lost },
  { name: "duplicated", type: "f64", get: (x) => x.r.delivery?.duplicated },
  { name: "mis_scored", type: "f64", get: (x) => x.r.delivery?.misScored },
  { name: "max_score_error", type: "f64", get: (x) => x.r.delivery?.maxScoreError },
  { name: "verified", type: "bool", get: (x) => x.r.verification?.passed },
  { name: "sampler_cpu_percent", type: "f64", get: (x) => x.r.harness?.samplerCpuPercent },
  { name: "runner_cpu_percent", type: "f64", get: (x) => x.r.harness?.runnerCpuPercent },
  { name: "gendata_cpu_percent", type: "f64", get: (x) => x.r.harness?.gendataCpuPercent },
  { name: "broker_cpu_percent", type: "f64", get: (x) => x.r.harness?.brokerCpuPercent },
  { name: "speed_index_before", type: "f64", get: (x) => x.r.conditions?.speedIndexBefore },
  { name: "speed_index_after", type: "f64", get: (x) => x.r.conditions?.speedIndexAfter },
  { name: "cpython_index_before", type: "f64", get: (x) => x.r.yardstick?.before.cpython?.recordsPerCpuSecond },
  { name: "cpython_index_after", type: "f64", get: (x) => x.r.yardstick?.after.cpython?.recordsPerCpuSecond },
  { name: "jvm_index_before", type: "f64", get: (x) => x.r.yardstick?.before.jvm?.recordsPerCpuSecond },
  { name: "jvm_index_after", type: "f64", get: (x) => x.r.yardstick?.after.jvm?.recordsPerCpuSecond },
  {
    name: "runtime_mix",
    type: "utf8",
    get: (x) => (x.r.yardstick?.mix ? `${describeShares(x.r.yardstick.mix.shares)} (${x.r.yardstick.mix.source})` : undefined),
  },
  { name: "foreign_cpu_avg", type: "f64", get: (x) => x.r.conditions?.foreignCpuAvg },
  { name: "steal_avg", type: "f64", get: (x) => x.r.conditions?.stealAvg },
  { name: "noisy", type: "bool", get: (x) => x.r.conditions?.noisy },
];

export const STEP_COLUMNS: Column<StepRow>[] = [
  { name: "product", type: "utf8", get: (x) => x.product },
  { name: "step", type: "i32", get: (x) => x.step },
  { name: "rate", type: "f64", get: (x) => x.s.rate },
  { name: "purpose", type: "utf8", get: (x) => x.s.purpose },
  { name: "offered_per_sec", type: "f64", get: (x) => x.s.offeredPerSec },
  { name: "consumed_per_sec", type: "f64", get: (x) => x.s.consumedPerSec },
  { name: "regime", type: "utf8", get: (x) => x.s.regime },
  { name: "lag_drift", type: "f64", get: (x) => x.s.lagDrift },
  { name: "cpu_avg", type: "f64", get: (x) => x.s.cpuAvg },
  { name: "failed", type: "utf8", get: (x) => x.s.failed },
  { name: "interrupted", type: "utf8", get: (x) => x.s.interrupted },
  { name: "invalid", type: "utf8", get: (x) => x.s.invalid },
  { name: "noisy", type: "utf8", get: (x) => x.s.noisy },
  { name: "unsettled", type: "bool", get: (x) => x.s.unsettled },
  { name: "gendata_short", type: "bool", get: (x) => x.s.gendataShort },
  { name: "slower", type: "utf8", get: (x) => x.s.slower },
  { name: "kept_up_at_speed", type: "bool", get: (x) => x.s.keptUpAtSpeed },
  { name: "rerun", type: "utf8", get: (x) => x.s.rerun },
  { name: "speed_index", type: "f64", get: (x) => x.s.speedIndex },
  { name: "foreign_cpu_avg", type: "f64", get: (x) => x.s.foreignCpuAvg },
  { name: "steal_avg", type: "f64", get: (x) => x.s.stealAvg },
  { name: "knee", type: "f64", get: (x) => x.knee },
];

export const ARROW_FILES = { ticks: "ticks.arrow", runs: "runs.arrow", steps: "sweep-steps.arrow" } as const;

export function arrowTables(results: BenchResults): { ticks: Table; runs: Table; steps: Table } {
  const runs = results.runs.map((r, run) => ({ run, r }));
  const ticks = runs.flatMap(({ run, r }) => r.ticks.map((tick) => ({ run, r, tick })));
  const stepRows = (results.sweeps ?? []).flatMap((w) => w.steps.map((s, step) => ({ step: step + 1, product: w.product, s, knee: w.knee })));
  return { ticks: table(ticks, TICK_COLUMNS), runs: table(runs, RUN_COLUMNS), steps: table(stepRows, STEP_COLUMNS) };
}

/** Writes the three files into `dir`; returns their paths. */
export function writeArrowFiles(dir: string, results: BenchResults): string[] {
  mkdirSync(dir, { recursive: true });
  const tables = arrowTables(results);
  return (Object.keys(ARROW_FILES) as (keyof typeof ARROW_FILES)[]).map((k) => {
    const path = join(dir, ARROW_FILES[k]);
    writeFileSync(path, tableToIPC(tables[k], "file"));
    return path;
  });
}
