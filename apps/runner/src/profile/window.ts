/**
 * The profiling phase: after the measured window, gendata still feeding at the same rate, each
 * process of the product's tree is read by its own profiler (py-spy for Python, JFR for the
 * JVM, V8's profiler for Node) for `seconds`, while the ticker keeps its beat. The measured
 * figures are never taken with a profiler attached.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { classifyStacks, CLOCK_TICKS, emptyCounts, formatCollapsed, PROFILE_CATEGORIES, type CollapsedStack, type ProfileRules } from "@bench/core";
import { throughput } from "../metrics/derive.ts";
import type { ProfiledProcess, ProfileResult, Tick } from "../results/types.ts";
import type { RunTicker } from "../run/ticker.ts";
import { lastStages, recordStages } from "./app-stages.ts";
import { combine, type ProcessCpu } from "./breakdown.ts";
import { recordJfr } from "./jfr.ts";
import { ensurePySpy, recordPySpy, type ProfilerOutcome } from "./pyspy.ts";
import { speedscopeFile } from "./speedscope.ts";
import { snapshotTree, threadDeltas } from "./threads.ts";
import { recordV8 } from "./v8.ts";

export interface ProfileOptions {
  roots(): number[];
  rules: ProfileRules | undefined;
  seconds: number;
  ticker: RunTicker;
  windowTicks: readonly Tick[];
  runDir: string;
  resultsDir: string;
  log(line: string): void;
}

type Kind = ProfiledProcess["profiler"];

/**
 * Installs the pinned py-spy before any run: installing it inside the profiling phase would
 * stall the ticker while gendata keeps feeding.
 */
export async function prepareProfilers(log: (line: string) => void): Promise<void> {
  await ensurePySpy(log).catch((error: Error) => log(`profile: py-spy could not be installed, Python rows will show no breakdown: ${error.message}`));
}

export function profilerFor(exe: string): Kind {
  if (/^python/.test(exe)) return "py-spy";
  if (exe === "java") return "jfr";
  if (exe === "node") return "v8";
  return "none";
}

/** CPU of the runner's ended children (the profilers, which end inside the phase), in clock ticks. */
function reapedChildTicks(): number {
  const stat = readFileSync("/proc/self/stat", "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(fields[13]) + Number(fields[14]);
}

type Snapshot = ReturnType<typeof snapshotTree>;

/** Each process's CPU per thread over the phase, its profiler's samples classified by the row's rules. */
function accountProcesses(
  start: Snapshot,
  end: Snapshot,
  kinds: Map<number, Kind>,
  outcomes: Map<number, ProfilerOutcome>,
  wallSec: number,
  rules: ProfileOptions["rules"],
) {
  const processes: ProfiledProcess[] = [];
  const weighted: ProcessCpu[] = [];
  const named: Array<{ name: string; stacks: CollapsedStack[] }> = [];
  for (const after of end.values()) {
    const threads = threadDeltas(start.get(after.pid), after);
    const kind = kinds.get(after.pid) ?? "none";
    const outcome = outcomes.get(after.pid);
    const stacks = outcome?.stacks ?? [];
    const samples = stacks.reduce((a, s) => a + s.count, 0);
    const cpuTicks = threads.reduce((a, t) => a + t.ticks, 0);
    const byName = new Map<string, number>();
    for (const t of threads) byName.set(t.name, (byName.get(t.name) ?? 0) + t.ticks);
    const threadCpu = [...byName].filter(([, t]) => t > 0).map(([name, t]) => ({ name, cpuPercent: (t / CLOCK_TICKS / wallSec) * 100 }));
    processes.push(
      {
        pid: after.pid,
        exe: after.exe,
        command: after.command,
        profiler: kind,
        cpuPercent: (cpuTicks / CLOCK_TICKS / wallSec) * 100,
        samples,
        threads: threadCpu,
        ...(outcome?.error ? { error: outcome.error } : {}),
      },
    );
    weighted.push({ pid: after.pid, threads, ...(samples > 0 ? { samples: classifyStacks(stacks, rules?.frames ?? []) } : {}) });
    if (samples > 0) named.push({ name: `${after.exe} ${after.pid}`, stacks });
  }
  return { processes, weighted, named };
}

/** The phase's flame graph as speedscope JSON and collapsed stacks under profiles/; paths relative to the results. */
function writeFlameGraphs(
  resultsDir: string,
  outDir: string,
  stem: string,
  named: Array<{ name: string; stacks: CollapsedStack[] }>,
): { speedscope: string; collapsed: string } {
  const speedscope = join(outDir, `${stem}.speedscope.json`);
  const collapsed = join(outDir, `${stem}.collapsed.txt`);
  writeFileSync(speedscope, JSON.stringify(speedscopeFile(stem, named)));
  writeFileSync(collapsed, formatCollapsed(named.flatMap((p) => p.stacks.map((s) => ({ frames: [p.name, ...s.frames], count: s.count })))));
  return { speedscope: relative(resultsDir, speedscope), collapsed: relative(resultsDir, collapsed) };
}

export async function profilePhase(opts: ProfileOptions): Promise<ProfileResult> {
  const { seconds, ticker } = opts;
  const stem = basename(opts.runDir);
  const outDir = join(opts.resultsDir, "profiles");
  mkdirSync(outDir, { recursive: true });
  const before = snapshotTree(opts.roots());
  const kinds = new Map([...before.values()].map((p) => [p.pid, profilerFor(p.exe)]));
  // A root no profiler reads that times its own stages in its log (a native app) is read by those.
  const root = opts.roots()[0];
  if (root !== undefined && kinds.get(root) === "none" && lastStages(opts.runDir)) kinds.set(root, "stages");
  let pySpy: string | undefined;
  let pySpyError: string | undefined;
  if ([...kinds.values()].includes("py-spy")) {
    // Installed before the bench's first run (prepareProfilers); here a check of its marker.
    try {
      pySpy = await ensurePySpy(opts.log);
    } catch (error) {
      pySpyError = `py-spy could not be installed: ${(error as Error).message}`;
    }
  }

  const childTicksBefore = reapedChildTicks();
  const first = ticker.ticks[ticker.ticks.length - 1];
  const start = snapshotTree(opts.roots());
  const startedAt = performance.now();
  const recordings = new Map<number, Promise<ProfilerOutcome>>();
  for (const [pid, kind] of kinds) {
    const file = join(opts.runDir, `profile-${pid}`);
    if (kind === "py-spy") recordings.set(pid, pySpy ? recordPySpy(pySpy, pid, seconds, `${file}.txt`) : Promise.resolve({ stacks: [], error: pySpyError }));
    if (kind === "jfr") recordings.set(pid, recordJfr(pid, seconds, `${file}.jfr`));
    if (kind === "v8") recordings.set(pid, recordV8(pid, seconds, `${file}.cpuprofile`));
    if (kind === "stages") recordings.set(pid, recordStages(opts.runDir, seconds));
  }
  const ticks: Tick[] = [];
  let tickError: string | undefined;
  try {
    for (let i = 0; i < seconds; i++) ticks.push(await ticker.next("profile"));
  } catch (error) {
    tickError = (error as Error).message;
  }
  const end = snapshotTree(opts.roots());
  const wallSec = (performance.now() - startedAt) / 1000;
  const outcomes = new Map<number, ProfilerOutcome>();
  for (const [pid, rec] of recordings) outcomes.set(pid, await rec);
  const profilerTicks = reapedChildTicks() - childTicksBefore;

  const { processes, weighted, named } = accountProcesses(start, end, kinds, outcomes, wallSec, opts.rules);
  const breakdown = combine(weighted, opts.rules?.threads);

  const last = ticks[ticks.length - 1];
  const elapsed = first && last ? last.t - first.t : wallSec;
  const consumed = first && last ? last.consumed - first.consumed : 0;
  const cpuSeconds = breakdown.totalTicks / CLOCK_TICKS;
  const microsPerRecord = emptyCounts();
  for (const c of PROFILE_CATEGORIES) microsPerRecord[c] = consumed > 0 ? (breakdown.ticks[c] / CLOCK_TICKS / consumed) * 1e6 : 0;

  const files = writeFlameGraphs(opts.resultsDir, outDir, stem, named);
  const errors = [tickError, ...processes.filter((p) => p.error).map((p) => `${p.exe} ${p.pid}: ${p.error}`)].filter(Boolean);
  return {
    seconds,
    consumedPerSec: elapsed > 0 ? consumed / elapsed : 0,
    cpuAvg: wallSec > 0 ? (cpuSeconds / wallSec) * 100 : 0,
    shares: breakdown.shares,
    microsPerRecord,
    processes,
    overhead: {
      profilerCpuPercent: (profilerTicks / CLOCK_TICKS / wallSec) * 100,
      cpuMicrosPerRecordWindow: throughput(opts.windowTicks).cpuMicrosPerInference,
      cpuMicrosPerRecordProfiled: consumed > 0 ? (cpuSeconds * 1e6) / consumed : 0,
    },
    files,
    ...(errors.length > 0 ? { error: errors.join("; ") } : {}),
  };
}
