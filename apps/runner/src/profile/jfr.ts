/**
 * Java Flight Recorder, built into the JDK: `jcmd <pid> JFR.start` on the running JVM (no
 * restart, no agent), `JFR.stop` writes the recording, `jfr print --json` gives its execution
 * samples (Java threads on the CPU, every ~10 ms with the `profile` settings).
 */
import { readFile, rm } from "node:fs/promises";
import { execa } from "execa";
import type { CollapsedStack } from "@bench/core";
import type { ProfilerOutcome } from "./pyspy.ts";

const STACK_DEPTH = 64;

interface JfrFrame {
  method?: { type?: { name?: string }; name?: string };
}
interface JfrEvent {
  values?: { stackTrace?: { frames?: JfrFrame[] } | null; sampledThread?: { javaName?: string } | null };
}

/**
 * jfr print --json's execution samples as collapsed stacks (JFR lists frames leaf first), each
 * rooted in a "[thread name]" frame: a rule can then give a thread's unclaimed work to what the
 * thread is for (the Kafka producer's network thread sends).
 */
export function jfrSamplesToStacks(json: string): CollapsedStack[] {
  const parsed = JSON.parse(json) as { recording?: { events?: JfrEvent[] } };
  const counts = new Map<string, number>();
  for (const e of parsed.recording?.events ?? []) {
    const frames = e.values?.stackTrace?.frames ?? [];
    if (frames.length === 0) continue;
    // JFR names classes in internal form (org/apache/kafka/...): the rules read dotted names.
    const names = frames.map((f) => `${(f.method?.type?.name ?? "?").replace(/\//g, ".")}.${f.method?.name ?? "?"}`).reverse();
    names.unshift(`[${e.values?.sampledThread?.javaName ?? "?"}]`);
    const key = names.join(";");
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([key, count]) => ({ frames: key.split(";"), count }));
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function recordJfr(pid: number, seconds: number, jfrFile: string): Promise<ProfilerOutcome> {
  const name = `bench-${pid}`;
  const start = await execa("jcmd", [String(pid), "JFR.start", `name=${name}`, "settings=profile"], { reject: false, all: true, timeout: 30_000 });
  if (start.exitCode !== 0 || /error|exception/i.test(String(start.all))) return {
    stacks: [],
    error: `jcmd JFR.start: ${String(start.all).trim().slice(-300)}`,
  };
  await sleep(seconds * 1000);
  const stop = await execa("jcmd", [String(pid), "JFR.stop", `name=${name}`, `filename=${jfrFile}`], { reject: false, all: true, timeout: 60_000 });
  if (stop.exitCode !== 0) return { stacks: [], error: `jcmd JFR.stop: ${String(stop.all).trim().slice(-300)}` };
  const print = await execa(
    "jfr",
    ["print", "--json", "--stack-depth", String(STACK_DEPTH), "--events", "jdk.ExecutionSample", jfrFile],
    { reject: false, maxBuffer: 1 << 30, timeout: 120_000 },
  );
  if (print.exitCode !== 0) return { stacks: [], error: `jfr print: ${String(print.stderr).trim().slice(-300)}` };
  const stacks = jfrSamplesToStacks(print.stdout);
  await rm(jfrFile, { force: true });
  return { stacks };
}
