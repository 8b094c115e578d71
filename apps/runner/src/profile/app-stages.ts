/**
 * A native app's own account of its CPU, for rows no sampling profiler here can read: the app
 * times its loop's stages with its thread's CPU clock and prints the cumulative figures as a
 * `BENCH_STAGES records=N fetch_us=… decode_us=… …` line every second into its log (the rust
 * row does). Over the profile phase, the difference between the last line before and the last
 * line after is that thread's CPU per stage, turned into one "stage:<name>" stack per stage
 * (count = µs) for the row's frame rules to classify like any profiler's stacks. The app's CPU
 * outside its stages comes as one more (untimed_us), which no rule claims: other, as always.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { CollapsedStack } from "@bench/core";
import type { ProfilerOutcome } from "./pyspy.ts";

/** The figures of one BENCH_STAGES line: microseconds per stage name. */
export type StageMicros = Map<string, number>;

export function parseStagesLine(line: string): StageMicros | undefined {
  if (!/^BENCH_STAGES\b/.test(line)) return undefined;
  const stages: StageMicros = new Map();
  for (const [, name, us] of line.matchAll(/\b([a-z]+)_us=(\d+)\b/g)) stages.set(name as string, Number(us));
  return stages.size > 0 ? stages : undefined;
}

/** The last BENCH_STAGES line's figures in the logs (*.log) of a run folder; undefined when the app prints none. */
export function lastStages(runDir: string): StageMicros | undefined {
  let last: StageMicros | undefined;
  let files: string[] = [];
  try {
    files = readdirSync(runDir).filter((f) => f.endsWith(".log"));
  } catch {
    return undefined;
  }
  for (const file of files) {
    const lines = readFileSync(join(runDir, file), "utf8").split("\n");
    for (let i = lines.length - 1; i >= 0; i--) {
      const stages = parseStagesLine(lines[i] as string);
      if (stages) {
        last = stages;
        break;
      }
    }
  }
  return last;
}

/** One "stage:<name>" stack per stage that spent CPU between the two readings, counted in µs. */
export function stageStacks(before: StageMicros, after: StageMicros): CollapsedStack[] {
  const stacks: CollapsedStack[] = [];
  for (const [name, us] of after) {
    const spent = us - (before.get(name) ?? 0);
    if (spent > 0) stacks.push({ frames: [`stage:${name}`], count: spent });
  }
  return stacks;
}

export async function recordStages(runDir: string, seconds: number): Promise<ProfilerOutcome> {
  const before = lastStages(runDir);
  if (!before) return { stacks: [], error: "the app printed no BENCH_STAGES line" };
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const after = lastStages(runDir);
  return after ? { stacks: stageStacks(before, after) } : { stacks: [], error: "the app's BENCH_STAGES lines stopped" };
}
