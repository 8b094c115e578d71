/**
 * Runtime readings taken outside a bench, supplied for results that have none (results written
 * before the runtime yardstick, or a machine whose probe was run by hand), so that such files can
 * be re-normalised: every run gets them in place of its own for the runtimes supplied, marked as
 * supplied. Both sides of a comparison must be read by the same probe (the reference cancels out
 * of a residual, the probe does not), so a side's own readings are replaced, not kept.
 */
import type { BenchResults, RuntimeReading, RuntimeReadings } from "../results/types.ts";
import { YARDSTICK_VERSION } from "./runtimes.ts";

/** "cpython=2330ns,jvm=950000": per runtime ns per record (a probe's printed figure) or records per CPU-second. */
export function parseSupplied(text: string, source: string): RuntimeReadings {
  const readings: RuntimeReadings = {};
  for (const part of text.split(",").filter(Boolean)) {
    const m = /^(cpython|jvm)=([\d.]+)(ns)?$/.exec(part.trim());
    if (!m) throw new Error(`not a runtime reading: ${part} (e.g. cpython=2330ns or jvm=950000)`);
    const value = Number(m[2]);
    const recordsPerCpuSecond = m[3] ? 1e9 / value : value;
    const reading: RuntimeReading = {
      recordsPerCpuSecond,
      processes: [recordsPerCpuSecond],
      checksum: 0,
      runtime: `supplied: ${part.trim()} (${source})`,
      version: YARDSTICK_VERSION,
    };
    readings[m[1] as "cpython" | "jvm"] = reading;
  }
  return readings;
}

/** The results with the supplied readings on every run, in place of its own for those runtimes. */
export function withSupplied(results: BenchResults, readings: RuntimeReadings): BenchResults {
  return {
    ...results,
    runs: results.runs.map((r) => ({
      ...r,
      yardstick: { ...r.yardstick, before: { ...r.yardstick?.before, ...readings }, after: { ...r.yardstick?.after, ...readings } },
    })),
  };
}

/** Which of the runtimes besides V8 some run of the results has a reading of. */
export function runtimesRead(results: BenchResults): Set<"cpython" | "jvm"> {
  const read = new Set<"cpython" | "jvm">();
  for (const r of results.runs) for (const k of ["cpython", "jvm"] as const) if (r.yardstick?.before[k] && r.yardstick.after[k]) read.add(k);
  return read;
}

/** The results without the readings of these runtimes: a comparison reads a runtime by its yardstick only where both sides have it. */
export function withoutRuntimes(results: BenchResults, drop: ReadonlySet<"cpython" | "jvm">): BenchResults {
  if (drop.size === 0) return results;
  const strip = (x: RuntimeReadings): RuntimeReadings => Object.fromEntries(
    Object.entries(x).filter(([k]) => !drop.has(k as "cpython" | "jvm")),
  ) as RuntimeReadings;
  return {
    ...results,
    runs: results.runs.map(
      (r) => (r.yardstick ? { ...r, yardstick: { ...r.yardstick, before: strip(r.yardstick.before), after: strip(r.yardstick.after) } } : r),
    ),
  };
}
