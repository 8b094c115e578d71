/** Looks at this machine: versions of the tools each product needs, space, cores, memory, load. */
import { accessSync, constants, existsSync, mkdirSync, readFileSync, statfsSync } from "node:fs";
import { availableParallelism, totalmem } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { cacheRoot } from "@bench/core";
import { execa } from "execa";
import type { Findings } from "./findings.ts";

const FLINK_JAVA_HOME = "/usr/lib/jvm/java-17-openjdk-amd64";
/** The Python products' venvs are made from Debian's interpreter (it sees Debian's python3-torch), not whatever python3.11 is first on PATH. */
const PYTHON = "/usr/bin/python3.11";

async function output(command: string, args: string[]): Promise<string | undefined> {
  const r = await execa(command, args, { reject: false, timeout: 60_000, all: true, env: { MAVEN_OPTS: "-Djansi.passthrough=false", TERM: "dumb" } });
  return r.exitCode === 0 ? (r.all ?? "").replace(/\u001b\[[0-9;]*m/g, "").trim() : undefined;
}

async function onPath(name: string): Promise<string | undefined> {
  return output("sh", ["-c", `command -v ${name}`]);
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

export async function probe(): Promise<Findings> {
  // First, while nothing of the doctor's own is busy.
  const load = await machineLoad();
  const [java, maven, python311, venv, torch, freeThreadedOnPath] = await Promise.all([
    output("java", ["-version"]),
    output("mvn", ["-v"]),
    output(PYTHON, ["--version"]),
    output(PYTHON, ["-c", "import venv, ensurepip"]),
    output(PYTHON, ["-c", "import torch; print(torch.__version__)"]),
    onPath("python3.14t"),
  ]);
  // As the Turbine adapter looks: TURBINE_PYTHON wins, else python3.14t on PATH.
  const freeThreaded = process.env.TURBINE_PYTHON ?? freeThreadedOnPath;
  const cache = cacheRoot();
  mkdirSync(cache, { recursive: true });
  const fs = statfsSync(cache);
  const bin = process.env.RISINGWAVE_BIN;
  let executable = false;
  if (bin) {
    try {
      accessSync(bin, constants.X_OK);
      executable = true;
    } catch {
      executable = false;
    }
  }
  const javaMajor = /version "(\d+)(?:\.(\d+))?/.exec(java ?? "");
  return {
    node: process.versions.node,
    ...(javaMajor ? { javaMajor: javaMajor[1] === "1" ? Number(javaMajor[2]) : Number(javaMajor[1]) } : {}),
    flinkJavaHome: existsSync(`${FLINK_JAVA_HOME}/bin/java`),
    ...(maven ? { mavenVersion: /Apache Maven (\S+)/.exec(maven)?.[1] ?? maven.split("\n")[0]! } : {}),
    ...(python311 ? { python311: python311.replace(/^Python /, "") } : {}),
    python311Venv: venv !== undefined,
    ...(torch ? { torch: torch.split("\n").pop()! } : {}),
    ...(freeThreaded ? { freeThreadedPython: freeThreaded } : {}),
    ...(bin ? { risingwaveBin: { path: bin, executable } } : {}),
    ...(process.env.RISINGWAVE_URL ? { risingwaveUrl: process.env.RISINGWAVE_URL } : {}),
    diskFreeGb: (fs.bavail * fs.bsize) / 1e9,
    cacheDir: cache,
    cores: availableParallelism(),
    memoryGb: totalmem() / 1e9,
    busyCpuPercent: load.busy,
    stealPercent: load.steal,
  };
}
