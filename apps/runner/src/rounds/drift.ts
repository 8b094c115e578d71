/**
 * A host's drift within one sitting, taken out of each round's figure. On machines of this kind the
 * same work moves by 10–40 % in phases of minutes, and the speed index (run/speed-index.ts), read
 * before and after every run, follows the steps of that drift. Each round's µs is scaled by its
 * run's speed index over the sitting's median index: a run in a phase 10 % faster than the sitting's
 * middle counts 10 % dearer, so rounds on both sides of a step come together, and the figure stays
 * in this host's units (µs at the sitting's median speed). Across machines nothing is claimed: the
 * index did not carry a row's cost from one host to another in a two-host test (docs/method.md).
 */
import type { BenchResults, RunResult } from "../results/types.ts";
import { median } from "../metrics/stats.ts";
import { runSpeed } from "../page/speed.ts";

/** The median speed index over the sitting's runs with a reading, or undefined when none has one. */
export function sittingSpeed(results: BenchResults): number | undefined {
  const speeds = results.runs.map(runSpeed).filter((s): s is number => s !== undefined);
  return speeds.length > 0 ? median(speeds) : undefined;
}

/**
 * The run's µs CPU per inference at the sitting's median speed: µs × its speed ÷ the sitting's. A
 * run without a reading, or a sitting without any, keeps its raw figure.
 */
export function driftCorrected(run: RunResult, sitting: number | undefined): number | undefined {
  const micros = run.throughput?.cpuMicrosPerInference;
  const speed = runSpeed(run);
  if (micros === undefined || speed === undefined || sitting === undefined) return micros;
  return (micros * speed) / sitting;
}
