/**
 * The page's yardstick: the speed index's readings and spread, and each row's cost at the
 * reference speed (`run/speed-index.ts`), normalised by the runtime yardstick of the runtimes the
 * row spends its CPU in (`yardstick/`). Within one sitting it follows the host's steps in speed;
 * across machines no two-host test has shown that it carries a row's cost (docs/method.md).
 */
import type { BenchResults, RunResult, YardstickRuntime } from "../results/types.ts";
import { coefficientOfVariation, median } from "../metrics/stats.ts";
import { REFERENCE_SPEED, SPEED_INDEX_VERSION } from "../run/speed-index.ts";
import { describeShares, mixOf } from "../yardstick/mix.ts";
import { mixFactor, RUNTIME_LABELS, RUNTIME_REFERENCE } from "../yardstick/runtimes.ts";
import { int } from "./format.ts";

/** Which speed index read a run (results without the field were read by version 1). */
export const speedVersionOf = (run: RunResult): number => run.conditions?.speedIndexVersion ?? 1;

/** The run's own speed index (the mean of its readings before and after), when the current index version took it. */
export function runSpeed(run: RunResult): number | undefined {
  const c = run.conditions;
  if (!c || speedVersionOf(run) !== SPEED_INDEX_VERSION || c.speedIndexBefore <= 0 || c.speedIndexAfter <= 0) return undefined;
  return (c.speedIndexBefore + c.speedIndexAfter) / 2;
}

export interface RowNormalisation {
  /** µs × factor = µs at the reference speed. */
  factor: number;
  /** What normalised the run, as the page says it: "CPython 95% + native 5% (declared)". */
  by: string;
  /** Where the mix came from: this run's profile, or the row's declaration (absent: no mix, V8's index). */
  source?: "profile" | "declared";
  /** The runtimes of its mix besides V8 and native code that V8's index read for want of their own reading. */
  byV8?: string[];
}

/**
 * How a run's cost is taken to the reference speed: its runtime mix's shares of each runtime's
 * index ÷ that runtime's reference, native code and runtimes without a reading by V8's index
 * (`yardstick/runtimes.ts` mixFactor). Undefined without readings of the current V8 index.
 */
export function normalisationOf(run: RunResult): RowNormalisation | undefined {
  const v8 = runSpeed(run);
  if (v8 === undefined) return undefined;
  const mix = mixOf(run);
  if (!mix) return { factor: v8 / REFERENCE_SPEED, by: "V8 index (the row declares no runtime mix)" };
  const { factor, readBy } = mixFactor(mix, v8, run.yardstick);
  const source = mix.source;
  const shares = `${describeShares(mix.shares)} (${mix.source === "profile" ? "this run's profile" : "declared"})`;
  const byV8 = (Object.entries(readBy) as Array<[YardstickRuntime, YardstickRuntime]>).filter(
    ([r, by]) => r !== "v8" && r !== "native" && by === "v8",
  ).map(([r]) => RUNTIME_LABELS[r]);
  if (byV8.length === 0) return { factor, by: shares, source };
  // Without a probe failure on record, a reading was set aside to match another machine's results that lack it.
  const failed = byV8.length > 0 && (["cpython", "jvm"] as const).some((r) => run.yardstick?.before.missing?.[r] ?? run.yardstick?.after.missing?.[r]);
  const why = !run.yardstick ? "these results predate the runtime yardstick" : failed ? "its probe gave no reading" : "the other side has no reading of it";
  return { factor, by: `${shares}, ${byV8.join(" and ")} read by V8's index (${why})`, source, byV8 };
}

/** µs CPU per inference at the reference speed, when the run has readings of the current index version. */
export function microsAtReference(run: RunResult): number | undefined {
  const n = normalisationOf(run);
  return n && run.throughput ? run.throughput.cpuMicrosPerInference * n.factor : undefined;
}

/**
 * Per product, what normalised its runs' "µs @ ref": each declared wording once, and the runs
 * normalised by their own profile counted, with the first one's wording.
 */
export function normalisedBy(results: BenchResults): Map<string, string[]> {
  const declared = new Map<string, string[]>();
  const profiled = new Map<string, { first: string; runs: number }>();
  for (const run of results.runs) {
    const n = run.status === "ok" ? normalisationOf(run) : undefined;
    if (!n) continue;
    if (n.source === "profile") {
      const p = profiled.get(run.product);
      profiled.set(run.product, { first: p?.first ?? n.by, runs: (p?.runs ?? 0) + 1 });
      continue;
    }
    const seen = declared.get(run.product) ?? [];
    if (!seen.includes(n.by)) seen.push(n.by);
    declared.set(run.product, seen);
  }
  const by = new Map<string, string[]>();
  for (const product of new Set([...declared.keys(), ...profiled.keys()])) {
    const p = profiled.get(product);
    const own = p ? [p.runs === 1 ? p.first : `${p.first.replace("this run's profile", "each run's own profile")} in ${p.runs} runs (the first shown)`] : [];
    by.set(product, [...(declared.get(product) ?? []), ...own]);
  }
  return by;
}

/** The runtime yardstick's readings in the results (before and after each run), per runtime. */
export function runtimeReadings(results: BenchResults, runtime: "cpython" | "jvm"): number[] {
  return results.runs.flatMap(
    (r) => (r.yardstick ? [r.yardstick.before[runtime], r.yardstick.after[runtime]] : []),
  ).flatMap((x) => (x && x.recordsPerCpuSecond > 0 ? [x.recordsPerCpuSecond] : []));
}

/** The header's sentences on the runtime yardstick: its readings, and per row what normalised it. */
export function runtimeSentence(results: BenchResults): string {
  const parts = (["cpython", "jvm"] as const).flatMap((r) => {
    const xs = runtimeReadings(results, r);
    return xs.length === 0
      ? []
      : [`${RUNTIME_LABELS[r]} ${int(median(xs))} (${int(Math.min(...xs))}–${int(Math.max(...xs))}, reference ${int(RUNTIME_REFERENCE[r])})`];
  });
  if (parts.length === 0) return `These results have no runtime yardstick readings (CPython, JVM): every row's "µs @ ref" is read by V8's index alone, and ` +
    `does not carry across CPU vendors for the rows whose CPU is CPython or the JVM.`;
  const readings = `Runtime yardstick, records of the same per-record work per CPU-second of one core in each runtime (median over every reading): ` +
    `${parts.join("; ")}. `;
  const rows = [...normalisedBy(results)].map(([product, by]) => `${product}: ${by.join("; ")}`);
  return rows.length === 0
    ? readings
    : `${readings}Each row's "µs @ ref" is normalised by the runtimes its CPU goes to (native code by V8's index): ${rows.join(" · ")}.`;
}

/** Every reading of the current index version in the results (before and after each run). */
export function currentReadings(results: BenchResults): number[] {
  return results.runs
    .filter((r) => speedVersionOf(r) === SPEED_INDEX_VERSION)
    .flatMap((r) => (r.conditions ? [r.conditions.speedIndexBefore, r.conditions.speedIndexAfter] : []))
    .filter((x) => x > 0);
}

/** Whether any run timed a cost: a file of fault scenarios alone has none, and so no speed, foreign-load or noisy-run readings. */
export const hasTimedRuns = (results: BenchResults): boolean => results.runs.length > 0;

/** Why a file of fault scenarios alone has no speed or foreign-load readings. */
export const NO_TIMED_RUNS = "no speed or foreign-load readings: these scenarios are audited for what they lose and how long they stall, and time no " +
  "cost per record";

/** The header's sentence on the speed index: what it reads, its own spread, and the reference. */
export function speedSentence(results: BenchResults): string {
  const readings = currentReadings(results);
  const what = "one core's JSON decode + normalise + 4-16-1 MLP + encode per record, the median over 5 fresh isolates of each one's median of 9 repetitions, " +
    "`apps/runner/src/run/speed-index.ts`";
  if (!hasTimedRuns(results)) return `Machine: ${NO_TIMED_RUNS}.`;
  if (readings.length === 0) {
    return `Machine: these runs were read by an older speed index (version 1, with a memory walk whose speed depended on the kernel's huge pages), not ` +
      `comparable with today's; no cost is given at the reference speed.`;
  }
  const older = results.runs.some((r) => r.conditions && speedVersionOf(r) !== SPEED_INDEX_VERSION)
    ? " Runs read by the older index (version 1) have no figure at the reference speed."
    : "";
  return (
    `Machine: speed index ${int(median(readings))} reference records per CPU-second (median; ${int(Math.min(...readings))}–${int(Math.max(...readings))} ` +
    `over ${readings.length} readings before and after each run, coefficient of variation ${(coefficientOfVariation(readings) * 100).toFixed(1)}%; ` +
    `${what}). ` +
    `"µs @ ref" states each row's CPU per inference at a speed index of ${int(REFERENCE_SPEED)}: µs × the run's own index ÷ ${int(REFERENCE_SPEED)}, ` +
    "this host's figure at the index's reference speed: a two-host test did not carry rows' costs across machines by it (docs/method.md), so compare " +
    `another host's raw µs, host named.${older} ${runtimeSentence(results)}`.trimEnd()
  );
}
