/** Reading the Linux /proc files the sampler needs. Everything here is synchronous and cheap. */
import { readdirSync, readFileSync } from "node:fs";

/** Clock ticks per second for utime/stime; 100 on every Linux this runs on (USER_HZ). */
export const CLOCK_TICKS = 100;

export interface ProcStat {
  pid: number;
  ppid: number;
  /** utime + stime, in clock ticks. */
  cpuTicks: number;
}

export function readStat(pid: number): ProcStat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // The command name may hold spaces and parentheses: fields start after the last ')'.
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return { pid, ppid: Number(fields[1]), cpuTicks: Number(fields[11]) + Number(fields[12]) };
}

export function allPids(): number[] {
  const pids: number[] = [];
  for (const name of readdirSync("/proc")) {
    const pid = Number(name);
    if (Number.isInteger(pid) && pid > 0) pids.push(pid);
  }
  return pids;
}

/** One reading of every live process: pid -> its stat. */
export type ProcessTable = ReadonlyMap<number, ProcStat>;

export function readProcessTable(): ProcessTable {
  const table = new Map<number, ProcStat>();
  for (const pid of allPids()) {
    const stat = readStat(pid);
    if (stat) table.set(pid, stat);
  }
  return table;
}

/** Every process in `table` whose ancestry reaches one of `roots` (roots included). */
export function treeOf(table: ProcessTable, roots: readonly number[]): ProcStat[] {
  const children = new Map<number, number[]>();
  for (const s of table.values()) {
    const list = children.get(s.ppid);
    if (list) list.push(s.pid);
    else children.set(s.ppid, [s.pid]);
  }
  const tree: ProcStat[] = [];
  const queue = roots.filter((pid) => table.has(pid));
  const seen = new Set<number>();
  while (queue.length > 0) {
    const pid = queue.pop() as number;
    if (seen.has(pid)) continue;
    seen.add(pid);
    tree.push(table.get(pid) as ProcStat);
    queue.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/** Every live process whose ancestry reaches one of `roots` (roots included). */
export function processTree(roots: readonly number[]): ProcStat[] {
  return treeOf(readProcessTable(), roots);
}

/**
 * kill -9 of every live process of the trees under `roots` (a crash of the whole product, as the
 * faults scenarios stage it); returns the pids signalled. One that is already gone is passed over.
 */
export function killTree(roots: readonly number[]): number[] {
  const victims = processTree(roots).map((p) => p.pid);
  for (const pid of victims) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  return victims;
}

/** The machine-wide CPU counters of /proc/stat's first line, in clock ticks. */
export interface MachineCpu {
  /** Every state but idle and iowait. */
  busy: number;
  steal: number;
  total: number;
}

/** Parses /proc/stat's aggregate `cpu` line (user nice system idle iowait irq softirq steal ...). */
export function parseMachineCpu(procStat: string): MachineCpu {
  const line = procStat.split("\n").find((l) => l.startsWith("cpu "));
  if (!line) throw new Error("no aggregate cpu line in /proc/stat");
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = line.trim().split(/\s+/).slice(1).map(Number);
  // guest and guest_nice are already inside user and nice.
  const busy = user + nice + system + irq + softirq + steal;
  return { busy, steal, total: busy + idle + iowait };
}

export function readMachineCpu(): MachineCpu {
  return parseMachineCpu(readFileSync("/proc/stat", "utf8"));
}

export interface MemoryReading {
  kib: number;
  /** "pss" when smaps_rollup was readable, "rss" when it fell back to status VmRSS. */
  instrument: "pss" | "rss";
}

export function readMemory(pid: number): MemoryReading | undefined {
  try {
    const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
    const match = /^Pss:\s+(\d+) kB/m.exec(rollup);
    if (match) return { kib: Number(match[1]), instrument: "pss" };
  } catch {
    // not readable (another user's process, or a kernel without smaps_rollup): fall back to RSS
  }
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const match = /^VmRSS:\s+(\d+) kB/m.exec(status);
    if (match) return { kib: Number(match[1]), instrument: "rss" };
  } catch {
    // gone
  }
  return undefined;
}
