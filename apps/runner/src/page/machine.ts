/**
 * The machine on the page: one line at the top naming the host and how quiet it was, so the answer
 * right under it is read with its conditions, and after the answer the section with the speed
 * index, the runtime yardstick, the rows' runtime mixes and the rules a run is judged by.
 */
import { coefficientOfVariation } from "../metrics/stats.ts";
import type { BenchResults } from "../results/types.ts";
import { dec1, int } from "./format.ts";
import { currentReadings, hasTimedRuns, NO_TIMED_RUNS } from "./speed.ts";
import { machineLine } from "./tables.ts";

export const MACHINE_HEADING = "The machine";

function range(values: readonly number[], unit: string): string {
  const low = Math.min(...values);
  const high = Math.max(...values);
  return low === high ? `${dec1(low)}${unit}` : `${dec1(low)}–${dec1(high)}${unit}`;
}

/** How quiet the host was over the runs that recorded their conditions. */
function quietness(results: BenchResults): string {
  const judged = results.runs.filter((r) => r.conditions);
  if (!hasTimedRuns(results)) return NO_TIMED_RUNS;
  if (judged.length === 0) return "how quiet it was is not recorded (these results predate the foreign-load accounting)";
  const noisy = judged.filter((r) => r.conditions!.noisy).length;
  const foreign = range(judged.map((r) => r.conditions!.foreignCpuAvg), " % of a core");
  const steal = range(judged.map((r) => r.conditions!.stealAvg), " %");
  const readings = currentReadings(results);
  const speed = readings.length > 1 ? `; speed index ${int(Math.min(...readings))}–${int(Math.max(...readings))} ` +
    `(coefficient of variation ${dec1(coefficientOfVariation(readings) * 100)} %)` : "";
  return `${noisy} of ${judged.length} runs noisy; foreign load ${foreign}, steal ${steal}${speed}`;
}

export function hostLine(results: BenchResults): string {
  const h = results.host;
  const id = h.cpuId ? ` (${h.cpuId})` : "";
  const more = hasTimedRuns(results) ? ` The machine's speed index and the rows' runtime mixes follow the answer (${MACHINE_HEADING}).` : "";
  return `Host: ${h.cpu}${id}, ${h.cores} cores, ${Math.round(h.memoryMb / 1024)} GB · ${quietness(results)}.${more}`;
}

export function machineSection(results: BenchResults): string[] {
  return [`## ${MACHINE_HEADING}`, "", machineLine(results), ""];
}
