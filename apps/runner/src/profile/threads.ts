/** Per-thread CPU of a process tree from /proc: the weights that put each profiler's samples on a common scale. */
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { basename } from "node:path";
import { processTree } from "@bench/core";

export interface ThreadCpu {
  name: string;
  /** utime + stime in clock ticks. */
  ticks: number;
}

export interface ProcessSnapshot {
  pid: number;
  /** The executable's file name (python3.11, java, node). */
  exe: string;
  command: string;
  threads: Map<number, ThreadCpu>;
}

function read(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

function threadsOf(pid: number): Map<number, ThreadCpu> {
  const threads = new Map<number, ThreadCpu>();
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return threads;
  }
  for (const tid of tids) {
    const stat = read(`/proc/${pid}/task/${tid}/stat`);
    if (!stat) continue;
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const name = (read(`/proc/${pid}/task/${tid}/comm`) ?? "").trim();
    threads.set(Number(tid), { name, ticks: Number(fields[11]) + Number(fields[12]) });
  }
  return threads;
}

export function snapshotTree(roots: readonly number[]): Map<number, ProcessSnapshot> {
  const out = new Map<number, ProcessSnapshot>();
  for (const { pid } of processTree(roots)) {
    let exe = "";
    try {
      exe = basename(readlinkSync(`/proc/${pid}/exe`));
    } catch {
      // a process that just ended
    }
    const command = (read(`/proc/${pid}/cmdline`) ?? "").split("\0").filter(Boolean).join(" ").slice(0, 200);
    out.set(pid, { pid, exe, command, threads: threadsOf(pid) });
  }
  return out;
}

/** Each thread's CPU ticks between two snapshots; threads born in between count from zero. */
export function threadDeltas(before: ProcessSnapshot | undefined, after: ProcessSnapshot): Array<ThreadCpu & { tid: number }> {
  const out: Array<ThreadCpu & { tid: number }> = [];
  for (const [tid, t] of after.threads) {
    const start = before?.threads.get(tid)?.ticks ?? 0;
    out.push({ tid, name: t.name, ticks: Math.max(0, t.ticks - start) });
  }
  return out;
}
