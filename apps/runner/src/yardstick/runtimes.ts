/**
 * The runtime yardstick: beside the speed index (V8, `run/speed-index.ts`), the same per-record
 * work read in each other runtime the rows spend their CPU in, because an interpreter loop does
 * not scale with V8's JIT code between CPU vendors (the Python rows' CPU moved 1.4–1.7× from an
 * AMD Zen 5 to an Intel Xeon where V8's moved 1.1×). A row's cost at the reference speed is
 * normalised by the mix of runtimes its CPU goes to (`mix.ts`).
 */
import type { RunResult, RuntimeMix, RuntimeReadings, YardstickRuntime } from "../results/types.ts";
import { REFERENCE_SPEED } from "../run/speed-index.ts";

/** Bump when a probe's work or statistic changes: readings of two versions are not comparable. */
export const YARDSTICK_VERSION = 1;

/**
 * Each runtime's reference speed, records per CPU-second: V8's is the speed index's. The others
 * are round figures of their readings on the machine that set them (docs/definitions.md) scaled by 650,000 ÷ that machine's V8 reading, so that on a machine
 * whose runtimes keep that machine's proportions every mix gives the V8 index's figure. The references only set
 * the scale of "µs @ ref": two machines' figures for one row compare the same whatever they are.
 */
export const RUNTIME_REFERENCE: Record<Exclude<YardstickRuntime, "native">, number> = {
  v8: REFERENCE_SPEED,
  cpython: 360_000,
  jvm: 950_000,
};

export const RUNTIME_LABELS: Record<YardstickRuntime, string> = { v8: "V8", cpython: "CPython", jvm: "JVM", native: "native" };

/** The mean of a runtime's readings before and after the run, when both exist and are of this version. */
export function runtimeSpeed(readings: { before: RuntimeReadings; after: RuntimeReadings }, runtime: "cpython" | "jvm"): number | undefined {
  const a = readings.before[runtime];
  const b = readings.after[runtime];
  if (
    !a ||
    !b ||
    a.version !== YARDSTICK_VERSION ||
    b.version !== YARDSTICK_VERSION ||
    a.recordsPerCpuSecond <= 0 ||
    b.recordsPerCpuSecond <= 0
  ) {
    return undefined;
  }
  return (a.recordsPerCpuSecond + b.recordsPerCpuSecond) / 2;
}

export interface Normalisation {
  /** µs × factor = µs at the reference speed. */
  factor: number;
  /** Per runtime of the mix, the index that read it (native code and a runtime with no reading: V8's). */
  readBy: Partial<Record<YardstickRuntime, YardstickRuntime>>;
}

/**
 * The run's speed factor: the mix's shares of each runtime's speed ÷ its reference. Native code
 * is read by V8's index (it carried with it across vendors: node 1.01, the librdkafka floor
 * within 8 %); so is a runtime whose probe gave no reading, and the page says so.
 */
export function mixFactor(mix: RuntimeMix, v8Speed: number, yardstick: RunResult["yardstick"]): Normalisation {
  const readBy: Normalisation["readBy"] = {};
  let factor = 0;
  let total = 0;
  for (const [runtime, share] of Object.entries(mix.shares) as Array<[YardstickRuntime, number]>) {
    if (!(share > 0)) continue;
    const own = runtime === "cpython" || runtime === "jvm" ? (yardstick ? runtimeSpeed(yardstick, runtime) : undefined) : undefined;
    readBy[runtime] = own !== undefined ? runtime : "v8";
    factor += share * (own !== undefined ? own / RUNTIME_REFERENCE[runtime as "cpython" | "jvm"] : v8Speed / RUNTIME_REFERENCE.v8);
    total += share;
  }
  return total > 0 ? { factor: factor / total, readBy } : { factor: v8Speed / RUNTIME_REFERENCE.v8, readBy: { v8: "v8" } };
}
