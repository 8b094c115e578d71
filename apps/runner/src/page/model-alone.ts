/**
 * "The model alone": the frozen model's forward timed outside any framework (model-alone/), at
 * each call shape the rows use and in each row's own runtime (CPython for the Python rows, ONNX
 * Runtime for Java, onnxruntime-node, the ort crate), once per round; each shape's median over the
 * rounds with its 95 % interval (the shapes' spreads read together, as the rows' are), and each
 * row's µs per inference split into the model at its own shape in its own runtime and the
 * framework around it. A row whose runtime was not timed says so and borrows no other runtime's
 * figure; a row's split is checked against its own profile's model-call column.
 */
import type { ModelHost } from "@bench/core";
import type { BenchResults, RunResult } from "../results/types.ts";
import { median } from "../metrics/stats.ts";
import { medianIntervals, type Interval } from "../rounds/intervals.ts";
import { rowProfileOf, profileOf } from "./breakdown.ts";
import { dec2, table } from "./format.ts";
import { intervalCell } from "./rounds.ts";
import type { RankedFigure } from "./framework-adds.ts";

export interface ShapeFigure {
  runtime: string;
  records: number;
  /** Where it was timed: CPython (model_alone.py) or a row's own runtime. */
  host: ModelHost;
  /** Over the rounds: each round's median of its repetitions. */
  interval: Interval;
  usedBy: string[];
  versions: Record<string, string>;
}

const HOST_LABELS: Record<ModelHost, string> = { cpython: "CPython", jvm: "the JVM", node: "Node.js", rust: "Rust (ort crate)" };

export function shapeFigures(results: BenchResults): ShapeFigure[] {
  type Entry = Omit<ShapeFigure, "interval" | "usedBy"> & { perRound: number[]; usedBy: Set<string> };
  const byShape = new Map<string, Entry>();
  for (const run of results.modelAlone ?? []) {
    for (const shape of run.shapes) {
      const host = shape.host ?? "cpython";
      const key = `${host}:${shape.runtime}:${shape.records}`;
      const versions = shape.versions ?? (host === "cpython" ? run.versions : {});
      const entry = byShape.get(key) ?? { runtime: shape.runtime, records: shape.records, host, versions, perRound: [], usedBy: new Set<string>() };
      entry.perRound.push(median(shape.usPerRecord));
      for (const id of shape.usedBy ?? []) entry.usedBy.add(id);
      byShape.set(key, entry);
    }
  }
  // Every shape is timed back to back after the same rounds: their spreads are read together, as the rows' are.
  const intervals = medianIntervals(new Map([...byShape].map(([key, e]) => [key, e.perRound])));
  return [...byShape].map(([key, { perRound: _perRound, usedBy, ...e }]) => ({ ...e, interval: intervals.get(key) as Interval, usedBy: [...usedBy].sort() }));
}

/**
 * The runtime a row calls its model from: what the model alone recorded for it, or (results from
 * before it recorded one) read from the runtimes the row's run names, Python first (spark's and
 * flink's models run in their Python workers).
 */
export function rowHost(results: BenchResults, run: RunResult): ModelHost {
  for (const timing of results.modelAlone ?? []) {
    const shape = timing.shapes.find((s) => s.host !== undefined && (s.usedBy ?? []).includes(run.product));
    if (shape?.host) return shape.host;
    const missed = timing.notTimed?.find((n) => n.product === run.product);
    if (missed) return missed.host;
  }
  const v = run.versions;
  return v.python ? "cpython" : v.java ? "jvm" : v.node ? "node" : v.rustc ? "rust" : "cpython";
}

/** The shape a row calls the model at, timed in the row's own runtime; undefined when its runtime was not timed. */
export function rowShape(results: BenchResults, shapes: readonly ShapeFigure[], run: RunResult): ShapeFigure | undefined {
  const host = rowHost(results, run);
  return shapes.find((s) => s.host === host && s.usedBy.includes(run.product));
}

/** Why a row that calls the model has no figure in its own runtime. */
function notTimedReason(results: BenchResults, run: RunResult, host: ModelHost): string {
  const reasons = [...new Set((results.modelAlone ?? []).flatMap((t) => t.notTimed ?? []).filter((n) => n.product === run.product).map((n) => n.reason))];
  const why = reasons.length > 0 ? reasons.join("; ") : `these results timed the model alone in CPython only`;
  return `not timed in its own runtime (${HOST_LABELS[host]}): ${why}; no other runtime's figure is shown as its own`;
}

/**
 * Where a runtime's profiler cannot see the model call, said beside a disagreement: the JVM's is
 * JFR, whose execution samples skip a thread while it runs native code, and ONNX Runtime for Java
 * runs the model in native code behind JNI.
 */
const PROFILER_BLIND_SPOT: Partial<Record<ModelHost, string>> = {
  jvm: " Here the profile cannot see most of the call: JFR's execution samples skip a thread while it runs native code, and ONNX Runtime for " +
    "Java runs the model in native code behind JNI, so the profile's model call holds only its Java side.",
};

/** The split against the row's own profile: the profile's model-call µs a record, and whether it lies within the model alone's interval. */
function crossCheck(results: BenchResults, run: RunResult, shape: ShapeFigure): { cell: string; note?: string } {
  const any = profileOf(results, run);
  if (any === undefined) return { cell: "no profile" };
  const profile = rowProfileOf(results, run);
  if (profile === undefined) return { cell: "profile perturbed (not compared)" };
  const micros = profile.microsPerRecord.model;
  const { low, high } = shape.interval;
  if (micros >= low && micros <= high) return { cell: `${dec2(micros)}: agrees` };
  return {
    cell: `${dec2(micros)}: disagrees`,
    note: `- ${run.product}: its profile puts the model call at ${dec2(micros)} µs a record, outside the model alone's ${intervalCell(shape.interval)}. ` +
      "The split shows the model alone: a timed call in the row's own runtime at its largest call shape with the input ready, where the profile's " +
      "figure is a share of sampled CPU that the adapter's rules give to the model call, at the batch sizes the row really formed." +
      (micros < low ? (PROFILER_BLIND_SPOT[shape.host] ?? "") : ""),
  };
}

function splitRows(results: BenchResults, ranked: ReadonlyMap<string, RankedFigure>, shapes: readonly ShapeFigure[]): { rows: string[][]; notes: string[] } {
  // Each ranked row's run at its ranked rate, one with a profile first: the breakdown the split is checked against.
  const runs = new Map<string, RunResult>();
  const atRate = results.runs.filter((r) => ranked.get(r.product)?.rate === r.settings.offeredRate);
  for (const r of [...atRate.filter((x) => x.profile), ...atRate, ...results.runs]) if (ranked.has(r.product) && !runs.has(r.product)) runs.set(r.product, r);
  const calling = new Set([...shapes.flatMap((s) => s.usedBy), ...(results.modelAlone ?? []).flatMap((t) => (t.notTimed ?? []).map((n) => n.product))]);
  const notes: string[] = [];
  const rows = [...runs.values()]
    .filter((run) => calling.has(run.product))
    .sort((a, b) => (ranked.get(a.product) as RankedFigure).micros - (ranked.get(b.product) as RankedFigure).micros)
    .map((run) => {
      const row = (ranked.get(run.product) as RankedFigure).micros;
      const shape = rowShape(results, shapes, run);
      if (shape === undefined) {
        const host = rowHost(results, run);
        return [run.product, HOST_LABELS[host], dec2(row), notTimedReason(results, run, host), "–", "–", "–"];
      }
      const framework = row - shape.interval.median;
      const check = crossCheck(results, run, shape);
      if (check.note) notes.push(check.note);
      return [run.product, `${shape.runtime} in ${HOST_LABELS[shape.host]}, ${shape.records.toLocaleString("en-US")} a call`, dec2(row),
        dec2(shape.interval.median), dec2(framework), `${Math.round((100 * framework) / row)} %`, check.cell];
    });
  return { rows, notes };
}

/** CPython's timings record both runtimes' versions: a shape names its own runtime's. */
const versionsText = (s: ShapeFigure): string =>
  s.host === "cpython" && s.versions[s.runtime] ? `${s.runtime} ${s.versions[s.runtime]}` : Object.entries(s.versions).map(([k, x]) => `${k} ${x}`).join(", ");

export function modelAloneSection(results: BenchResults, ranked: ReadonlyMap<string, RankedFigure>): string[] {
  if (results.modelAlone === undefined && results.modelAloneNotRun === undefined) return [];
  const head = ["## The model alone", ""];
  if (results.modelAlone === undefined || results.modelAlone.length === 0) return [...head, `Not timed here: ${results.modelAloneNotRun}.`, ""];
  const shapes = shapeFigures(results);
  const split = splitRows(results, ranked, shapes);
  return [
    ...head,
    `The model's forward alone (${results.modelAlone[0]?.model}; one intra-op thread), CPU µs per record, timed after each of ` +
      `${results.modelAlone.length} rounds at the call shapes the rows use, each in the runtime the row calls it from: the input already a float32 ` +
      `tensor or array, so turning records into it is the framework's share. A row's calls at its knee may hold fewer records than its largest call; ` +
      `the split below reads the model at the largest. ` +
      (results.modelAloneNotRun ? `Timing stopped early: ${results.modelAloneNotRun}.` : ""),
    "",
    table(
      ["runtime", "timed in", "records a call", "µs per record, median [95 % interval] over rounds", "rows that call it so"],
      shapes.map((s) => [
        s.runtime, `${HOST_LABELS[s.host]} (${versionsText(s)})`, s.records.toLocaleString("en-US"), intervalCell(s.interval),
        s.usedBy.join(", ") || "– (one record a call, for reference)",
      ]),
    ),
    "",
    ...(split.rows.length > 0
      ? [
        table(["product", "its model call", "µs per inference (row)", "the model alone", "the framework around it", "framework's share",
          "its profile's model call, µs a record"], split.rows),
        "",
        "The last column holds the row's own CPU breakdown against the split: its model-call µs a record, which agrees when it lies within the model " +
          "alone's 95 % interval (a profile taken under a perturbing profiler is not compared).",
        "",
        ...split.notes,
        ...(split.notes.length > 0 ? [""] : []),
      ]
      : []),
  ];
}
