/**
 * Samples the product's whole process tree once a tick: CPU as utime+stime deltas from /proc
 * (100 = one core busy), memory as the sum of PSS (RSS where PSS is unreadable). Children and
 * threads are found afresh each tick, so workers a product forks later are counted. The
 * sampler's own CPU is measured too, so the page can say what watching cost.
 */
import { CLOCK_TICKS, readMemory, readProcessTable, treeOf, type ProcessTable } from "./proc.ts";

export type MemoryInstrument = "pss" | "rss" | "mixed";

export interface ResourceSample {
  /** Seconds since the sampler started. */
  t: number;
  cpuPercent: number;
  memMb: number;
  processes: number;
  instrument: MemoryInstrument;
}

export interface SamplerCost {
  /** The sampler's own CPU while it ran, 100 = one core. */
  cpuPercent: number;
  ticks: number;
}

export class TreeSampler {
  private previous = new Map<number, number>();
  private lastWall = 0;
  private readonly startWall = performance.now();
  private ownCpuMicros = 0;
  private ticks = 0;

  constructor(private readonly roots: () => number[]) {}

  /**
   * The first call only primes the deltas and returns undefined. `table` lets a caller that
   * reads every process anyway (foreign-load accounting) share one reading of /proc.
   */
  sample(table?: ProcessTable): ResourceSample | undefined {
    const ownBefore = process.cpuUsage();
    const now = performance.now();
    const tree = treeOf(table ?? readProcessTable(), this.roots());
    let deltaTicks = 0;
    const current = new Map<number, number>();
    for (const p of tree) {
      current.set(p.pid, p.cpuTicks);
      // A process first seen now started within the interval (or is the first tick's baseline).
      deltaTicks += p.cpuTicks - (this.previous.get(p.pid) ?? (this.lastWall === 0 ? p.cpuTicks : 0));
    }
    let memKib = 0;
    let pss = 0;
    let rss = 0;
    for (const p of tree) {
      const m = readMemory(p.pid);
      if (!m) continue;
      memKib += m.kib;
      if (m.instrument === "pss") pss++;
      else rss++;
    }
    const primed = this.lastWall !== 0;
    const seconds = (now - this.lastWall) / 1000;
    this.previous = current;
    this.lastWall = now;
    const used = process.cpuUsage(ownBefore);
    this.ownCpuMicros += used.user + used.system;
    this.ticks++;
    if (!primed) return undefined;
    return {
      t: Math.round((now - this.startWall) / 10) / 100,
      cpuPercent: (deltaTicks / CLOCK_TICKS / seconds) * 100,
      memMb: memKib / 1024,
      processes: tree.length,
      instrument: rss === 0 ? "pss" : pss === 0 ? "rss" : "mixed",
    };
  }

  cost(): SamplerCost {
    const wallSeconds = (performance.now() - this.startWall) / 1000;
    return { cpuPercent: wallSeconds > 0 ? (this.ownCpuMicros / 1e6 / wallSeconds) * 100 : 0, ticks: this.ticks };
  }
}
