/**
 * One row's breakdown from several profilers: each process's CPU (from /proc, per thread) is
 * the weight, its profiler's classified samples the split. Threads a thread rule claims go to
 * that category whole; the rest of a process's CPU is split as its samples are; a process no
 * profiler read (or whose profiler failed) is "other", so the shares always cover the whole tree.
 */
import { emptyCounts, PROFILE_CATEGORIES, sharesOf, classifyThread, type CategoryCounts, type ThreadRule } from "@bench/core";

export interface ProcessCpu {
  pid: number;
  threads: Array<{ name: string; ticks: number }>;
  /** The profiler's samples by category; undefined when no profiler read this process. */
  samples?: CategoryCounts;
}

export interface Breakdown {
  /** Clock ticks of CPU per category over the profiling window. */
  ticks: CategoryCounts;
  /** Fractions of the tree's CPU, summing to 1. */
  shares: CategoryCounts;
  totalTicks: number;
}

export function combine(processes: readonly ProcessCpu[], threadRules: readonly ThreadRule[] | undefined): Breakdown {
  const ticks = emptyCounts();
  for (const p of processes) {
    let rest = 0;
    for (const t of p.threads) {
      const category = classifyThread(t.name, threadRules);
      if (category) ticks[category] += t.ticks;
      else rest += t.ticks;
    }
    const sampled = p.samples ? PROFILE_CATEGORIES.reduce((a, c) => a + (p.samples as CategoryCounts)[c], 0) : 0;
    if (!p.samples || sampled === 0) {
      ticks.other += rest;
      continue;
    }
    const split = sharesOf(p.samples);
    for (const c of PROFILE_CATEGORIES) ticks[c] += rest * split[c];
  }
  const totalTicks = PROFILE_CATEGORIES.reduce((a, c) => a + ticks[c], 0);
  return { ticks, shares: sharesOf(ticks), totalTicks };
}
