/** Looks at this machine for the bench's own needs: Node.js, java and Maven (the broker), space, cores, memory, load. */
import { mkdirSync, readFileSync, statfsSync } from "node:fs";
import { availableParallelism, totalmem } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { cacheRoot } from "@bench/core";
import { execa } from "execa";
import type { Findings } from "./findings.ts";

async function output(command: string, args: string[]): Promise<string | undefined> {
  const r = await execa(command, args, { reject: false, timeout: 60_000, all: true, env: { MAVEN_OPTS: "-Djansi.passthrough=false", TERM: "dumb" } });
  return r.exitCode === 0 ? (r.all ?? "").replace(/\u001b\[[0-9;]*m/g, "").trim() : undefined;
}

/** Busy and steal CPU of the whole machine over `ms`, from /proc/stat, 100 = one core. */
export async function machineLoad(ms = 1000): Promise<{ busy: number; steal: number }> {
  const read = (): number[] => (readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "").trim().split(/\s+/).slice(1).map(Number);
  const a = read();
  await sleep(ms);
  const b = read();
  const d = b.map((v, i) => v - (a[i] ?? 0));
  const total = d.reduce((s, v) => s + v, 0);
  if (total <= 0) return { busy: 0, steal: 0 };
  // user nice system idle iowait irq softirq steal ...
  const idle = (d[3] ?? 0) + (d[4] ?? 0);
  const steal = d[7] ?? 0;
  const cores = availableParallelism();
  return { busy: ((total - idle - steal) / total) * 100 * cores, steal: (steal / total) * 100 * cores };
}

/** The bench's own needs; `load` is machineLoad()'s reading, taken before anything else of the doctor ran. */
export async function probeMachine(load: { busy: number; steal: number }): Promise<Findings> {
  const [java, maven] = await Promise.all([output("java", ["-version"]), output("mvn", ["-v"])]);
  const cache = cacheRoot();
  mkdirSync(cache, { recursive: true });
  const fs = statfsSync(cache);
  const javaMajor = /version "(\d+)(?:\.(\d+))?/.exec(java ?? "");
  return {
    node: process.versions.node,
    ...(javaMajor ? { javaMajor: javaMajor[1] === "1" ? Number(javaMajor[2]) : Number(javaMajor[1]) } : {}),
    ...(maven ? { mavenVersion: /Apache Maven (\S+)/.exec(maven)?.[1] ?? maven.split("\n")[0]! } : {}),
    diskFreeGb: (fs.bavail * fs.bsize) / 1e9,
    cacheDir: cache,
    cores: availableParallelism(),
    memoryGb: totalmem() / 1e9,
    busyCpuPercent: load.busy,
    stealPercent: load.steal,
  };
}
