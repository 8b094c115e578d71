/** The page's "CPU breakdown" section: where each row's CPU went, from its profiling phase. */
import { CATEGORY_LABELS, PROFILE_CATEGORIES } from "@bench/core";
import type { BenchResults, ProfileResult, RunResult } from "../results/types.ts";
import { dec1, dec2, int, table } from "./format.ts";
import { productLabel } from "./rows.ts";

/** The row's own profile, else one taken of the same product at the same rate (a sweep's other confirm run). */
export function profileOf(results: BenchResults, row: RunResult): ProfileResult | undefined {
  if (row.profile) return row.profile;
  return results.runs.find((r) => r.product === row.product && r.settings.offeredRate === row.settings.offeredRate && r.profile)?.profile;
}

/**
 * How far a profile's phase may cost from the measured window, per record, and still describe the
 * row: past it the profilers changed what they profiled, and its shares are the row under them.
 */
export const PERTURBATION_LIMIT = 0.25;

/** The profiled phase's µs per record over the window's, less 1; undefined when the window has no figure to hold it to. */
export function profilerMoved(p: ProfileResult): number | undefined {
  const { cpuMicrosPerRecordWindow: window, cpuMicrosPerRecordProfiled: profiled } = p.overhead;
  return window > 0 && Number.isFinite(profiled) ? profiled / window - 1 : undefined;
}

export function perturbedProfile(p: ProfileResult): boolean {
  const moved = profilerMoved(p);
  return moved !== undefined && Math.abs(moved) > PERTURBATION_LIMIT;
}

/** The row's breakdown, shown as the row's only when profiling did not change the row. */
export function rowProfileOf(results: BenchResults, row: RunResult): ProfileResult | undefined {
  const p = profileOf(results, row);
  return p && !perturbedProfile(p) ? p : undefined;
}

const percent = (fraction: number): string => `${fraction > 0 ? "+" : ""}${int(fraction * 100)} %`;

const cell = (p: ProfileResult, c: (typeof PROFILE_CATEGORIES)[number]): string =>
  perturbedProfile(p) ? "–" : `${dec1(p.shares[c] * 100)}% · ${dec2(p.microsPerRecord[c])}`;

const costCell = (p: ProfileResult): string =>
  `${dec2(p.overhead.cpuMicrosPerRecordProfiled)} (${dec2(p.overhead.cpuMicrosPerRecordWindow)})${perturbedProfile(p) ? " ⚠ perturbed" : ""}`;

/** Why a perturbed row shows no shares: what the profiled phase cost against the window, and what the profilers took. */
function perturbedLine(row: RunResult, p: ProfileResult): string {
  return `- ${productLabel(row)}: taken under a perturbing profiler. The profiled phase cost ${dec2(p.overhead.cpuMicrosPerRecordProfiled)} µs a ` +
    `record against ${dec2(p.overhead.cpuMicrosPerRecordWindow)} in the measured window (${percent(profilerMoved(p)!)}; the profilers' own processes ` +
    `${dec1(p.overhead.profilerCpuPercent)} % of a core), more than ${int(PERTURBATION_LIMIT * 100)} % from it: its shares describe the row under the ` +
    `profiler, not the row, so none is shown as the row's (its flame graph stays linked).`;
}

export function breakdownSection(results: BenchResults, measured: readonly RunResult[]): string[] {
  const rows = measured.map((r) => [r, profileOf(results, r)] as const).filter((x): x is readonly [RunResult, ProfileResult] => x[1] !== undefined);
  if (rows.length === 0) return [];
  const out = ["## CPU breakdown", ""];
  out.push(
    table(
      [
        "product",
        "rate/s",
        ...PROFILE_CATEGORIES.map((c) => CATEGORY_LABELS[c]),
        "µs CPU / record profiled (window)",
        "profiler cost % of a core",
        "flame graph",
      ],
      rows.map(([r, p]) => [
        productLabel(r), int(r.settings.offeredRate), ...PROFILE_CATEGORIES.map((c) => cell(p, c)),
        costCell(p), dec1(p.overhead.profilerCpuPercent),
        p.files ? `[speedscope](${p.files.speedscope})` : "–",
      ]),
    ),
    "",
    "Each cell: share of the product tree's CPU · µs CPU per consumed record. Taken in a profiling phase of 10 s after the measured window, gendata still " +
      "feeding at the same rate, so no profiler touched the measured figures: py-spy (`record --native`, threads on the CPU only) for Python processes, Java " +
      "Flight Recorder execution samples (started with jcmd) for the JVM, V8's CPU profiler (over the inspector, opened with SIGUSR1) for Node; a native app " +
      "(the rust row) times its own loop's stages with its thread's CPU clock and logs them (BENCH_STAGES), which stand in for samples. Each process's CPU " +
      "from /proc, per thread, weighs its profiler's samples; threads no profiler sees (librdkafka's, the JVM's GC and JIT threads) go to a category by " +
      "their name; frames are sorted by the rules in each adapter's `profile-rules.ts` (the innermost frame a rule claims decides). What no rule claims, and " +
      "any process no profiler could read, is *other* — shown, never spread over the rest. librdkafka's own threads (fetch, decompress and the producer's " +
      "send) are counted under fetch. µs CPU / record profiled vs. the window's figure, and the profilers' own processes, state what profiling cost. " +
      `A row whose profiled phase cost more than ${int(PERTURBATION_LIMIT * 100)} % more or less per record than its window is marked ⚠ perturbed and ` +
      "shows no shares: the profiler changed it.",
    "",
  );
  const perturbed = rows.filter(([, p]) => perturbedProfile(p));
  for (const [r, p] of perturbed) out.push(perturbedLine(r, p));
  if (perturbed.length > 0) out.push("");
  const failed = rows.filter(([, p]) => p.error);
  for (const [r, p] of failed) out.push(`- ${productLabel(r)}: ${p.error}`);
  if (failed.length > 0) out.push("");
  return out;
}
