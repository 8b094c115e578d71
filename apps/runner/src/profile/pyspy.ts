/**
 * py-spy (pinned, from the Python package index, in its own small venv in the cache) reads a
 * Python process from outside through ptrace: `record --native` for C and Rust frames too, no
 * `--idle` so only threads on the CPU are sampled, `--format raw` for collapsed stacks.
 */
import { join } from "node:path";
import { execa } from "execa";
import { cacheRoot, ensurePythonEnv, parseCollapsed, type CollapsedStack } from "@bench/core";

export const PY_SPY_PIN = "py-spy==0.4.3";
/** Samples per second, half py-spy's default: with --native every sample stops the process to unwind it, and at 100/s that slows the Python rows visibly. */
export const PY_SPY_RATE = 50;

export async function ensurePySpy(log: (line: string) => void): Promise<string> {
  const env = await ensurePythonEnv({ python: "/usr/bin/python3.11", requirements: [PY_SPY_PIN] }, join(cacheRoot(), "profilers"), log);
  return join(env.venvDir, "bin", "py-spy");
}

export interface ProfilerOutcome {
  stacks: CollapsedStack[];
  error?: string;
}

export async function recordPySpy(bin: string, pid: number, seconds: number, outFile: string): Promise<ProfilerOutcome> {
  const run = await execa(bin, [
    "record",
    "--native",
    "--format",
    "raw",
    "--rate",
    String(PY_SPY_RATE),
    "--duration",
    String(seconds),
    "--pid",
    String(pid),
    "--output",
    outFile,
  ], {
    reject: false,
    all: true,
    timeout: (seconds + 30) * 1000,
  });
  if (run.timedOut) return { stacks: [], error: `py-spy did not finish in ${seconds + 30} s: ${String(run.all ?? "").trim().split("\n").slice(-1).join("")}` };
  if (run.exitCode !== 0) return { stacks: [], error: `py-spy exited ${run.exitCode}: ${String(run.all ?? "").trim().split("\n").slice(-3).join(" | ")}` };
  const { readFile } = await import("node:fs/promises");
  return { stacks: parseCollapsed(await readFile(outFile, "utf8")) };
}
