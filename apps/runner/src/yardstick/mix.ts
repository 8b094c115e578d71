/**
 * Which runtimes a row's CPU goes to. Measured when the run was profiled: each process's CPU
 * per thread (`ProfileResult.processes`) sorted by what runs on it. Otherwise declared: the
 * mix its adapter declares (`declared-mix.ts`), stated as declared on the page, never as this run's
 * measurement.
 */
import type { ProfiledProcess, ProfileResult, RunResult, RuntimeMix, YardstickRuntime } from "../results/types.ts";
import { type DeclaredShares, declaredMixes } from "./declared-mix.ts";
import { RUNTIME_LABELS } from "./runtimes.ts";

/**
 * Threads inside a Python or Node process that are native code first: librdkafka's C threads,
 * Pathway's Rust engine threads, libuv's pool. Pathway's UDF runs its Python on the engine's
 * work threads, but at its knee only about a sixth of that process's samples were Python or the
 * extensions it calls; the rest was the engine and libc.
 */
const NATIVE_THREADS = /^(rdk:|pathway:|jemalloc_bg_thd|producer pollin|libuv-worker)/;

/** The runtime a thread of a process of this executable spends its CPU in. */
export function runtimeOfThread(exe: string, thread: string): YardstickRuntime {
  if (exe === "java") return "jvm";
  if (NATIVE_THREADS.test(thread)) return "native";
  if (/^python/.test(exe)) return "cpython";
  if (exe === "node") return "v8";
  return "native";
}

function addProcess(shares: Partial<Record<YardstickRuntime, number>>, p: ProfiledProcess): void {
  const threads = p.threads && p.threads.length > 0 ? p.threads : [{ name: p.exe, cpuPercent: p.cpuPercent }];
  for (const t of threads) {
    const runtime = runtimeOfThread(p.exe, t.name);
    shares[runtime] = (shares[runtime] ?? 0) + t.cpuPercent;
  }
}

/** The mix measured by a profile, shares summing to 1; undefined when the profile saw no CPU. */
export function mixFromProfile(profile: ProfileResult): RuntimeMix | undefined {
  if (profile.error && profile.processes.length === 0) return undefined;
  const shares: Partial<Record<YardstickRuntime, number>> = {};
  for (const p of profile.processes) addProcess(shares, p);
  const total = Object.values(shares).reduce((a, b) => a + b, 0);
  if (!(total > 0)) return undefined;
  for (const r of Object.keys(shares) as YardstickRuntime[]) shares[r] = (shares[r] as number) / total;
  return { shares, source: "profile" };
}

/** The row's declared mix, by its id or else its family (`mixes`: the adapters' declarations). */
export function declaredMix(run: Pick<RunResult, "product" | "family">, mixes: Record<string, DeclaredShares> = declaredMixes()): RuntimeMix | undefined {
  const shares = mixes[run.product] ?? (run.family ? mixes[run.family] : undefined);
  return shares ? { shares, source: "declared" } : undefined;
}

/** The mix a run is normalised by: its own profile's, else the one it recorded, else its row's declared one. */
export function mixOf(run: RunResult): RuntimeMix | undefined {
  return (run.profile ? mixFromProfile(run.profile) : undefined) ?? run.yardstick?.mix ?? declaredMix(run);
}

/** "CPython 91% + native 9%", largest share first. */
export function describeShares(shares: RuntimeMix["shares"]): string {
  return (Object.entries(shares) as Array<[YardstickRuntime, number]>)
    .filter(([, s]) => s >= 0.005)
    .sort((a, b) => b[1] - a[1])
    .map(([r, s]) => `${RUNTIME_LABELS[r]} ${Math.round(s * 100)}%`)
    .join(" + ");
}
