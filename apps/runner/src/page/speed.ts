/**
 * The page's yardstick: the speed index's readings and spread, and each row's cost at the
 * reference speed (`run/speed-index.ts`), the figure a reader compares across machines.
 */
import type { BenchResults, RunResult } from "../results/types.ts";
import { coefficientOfVariation, median } from "../metrics/stats.ts";
import { atReferenceSpeed, REFERENCE_SPEED, SPEED_INDEX_VERSION } from "../run/speed-index.ts";
import { int } from "./format.ts";

/** Which speed index read a run (results without the field were read by version 1). */
export const speedVersionOf = (run: RunResult): number => run.conditions?.speedIndexVersion ?? 1;

/** The run's own speed index (the mean of its readings before and after), when the current index version took it. */
export function runSpeed(run: RunResult): number | undefined {
  const c = run.conditions;
  if (!c || speedVersionOf(run) !== SPEED_INDEX_VERSION || c.speedIndexBefore <= 0 || c.speedIndexAfter <= 0) return undefined;
  return (c.speedIndexBefore + c.speedIndexAfter) / 2;
}

/** µs CPU per inference at the reference speed, when the run has readings of the current index version. */
export function microsAtReference(run: RunResult): number | undefined {
  const speed = runSpeed(run);
  return speed !== undefined && run.throughput ? atReferenceSpeed(run.throughput.cpuMicrosPerInference, speed) : undefined;
}

/** Every reading of the current index version in the results (before and after each run). */
export function currentReadings(results: BenchResults): number[] {
  return results.runs
    .filter((r) => speedVersionOf(r) === SPEED_INDEX_VERSION)
    .flatMap((r) => (r.conditions ? [r.conditions.speedIndexBefore, r.conditions.speedIndexAfter] : []))
    .filter((x) => x > 0);
}

/** The header's sentence on the speed index: what it reads, its own spread, and the reference. */
export function speedSentence(results: BenchResults): string {
  const readings = currentReadings(results);
  const what = "one core's JSON decode + normalise + 4-16-1 MLP + encode per record, the median over 5 fresh isolates of each one's median of 9 repetitions, `apps/runner/src/run/speed-index.ts`";
  if (readings.length === 0) {
    return `Machine: these runs were read by an older speed index (version 1, with a memory walk whose speed depended on the kernel's huge pages), not comparable with today's; no cost is given at the reference speed.`;
  }
  const older = results.runs.some((r) => r.conditions && speedVersionOf(r) !== SPEED_INDEX_VERSION) ? " Runs read by the older index (version 1) have no figure at the reference speed." : "";
  return (
    `Machine: speed index ${int(median(readings))} reference records per CPU-second (median; ${int(Math.min(...readings))}–${int(Math.max(...readings))} over ${readings.length} readings before and after each run, coefficient of variation ${(coefficientOfVariation(readings) * 100).toFixed(1)}%; ${what}). ` +
    `"µs @ ref" states each row's CPU per inference at a speed index of ${int(REFERENCE_SPEED)}: µs × the run's own index ÷ ${int(REFERENCE_SPEED)}, the figure to compare across machines.${older}`
  );
}
