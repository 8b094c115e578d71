/**
 * How quiet the machine is while a product is measured. Each tick reads every process once:
 * the product's tree is sampled from that reading, and whatever is neither the product nor the
 * harness (this runner, gendata, the broker) is foreign load. Steal comes from /proc/stat. A
 * busy machine can make a row cost several times what it costs on a quiet one; these two numbers
 * are what lets a page tell.
 */
import {
  CLOCK_TICKS,
  readMachineCpu,
  readProcessTable,
  treeOf,
  TreeSampler,
  type MachineCpu,
  type ProcessTable,
  type ResourceSample,
} from "@bench/core";

/**
 * CPU ticks spent between two readings by the processes of `now` outside `excluded` (foreign
 * load when `excluded` is the product and the harness; one part of the harness when `now` is it). A pid first seen in
 * `now` started within the interval, so all its ticks are new; a pid reused within one tick
 * would read negative and is counted as 0.
 */
export function cpuTicksBetween(previous: ProcessTable, now: ProcessTable, excluded: ReadonlySet<number>): number {
  let ticks = 0;
  for (const [pid, stat] of now) {
    if (excluded.has(pid)) continue;
    ticks += Math.max(0, stat.cpuTicks - (previous.get(pid)?.cpuTicks ?? 0));
  }
  return ticks;
}

/** Steal between two /proc/stat readings, 100 = one core. */
export function stealPercent(previous: MachineCpu, now: MachineCpu, seconds: number): number {
  return seconds > 0 ? ((now.steal - previous.steal) / CLOCK_TICKS / seconds) * 100 : 0;
}

export interface MachineTick {
  product: ResourceSample | undefined;
  /** The model server's trees (served by the bench's own server), sampled apart from the product's. */
  server?: ResourceSample | undefined;
  foreignCpuPercent: number;
  stealPercent: number;
  /** The harness's parts over the tick, 100 = one core. */
  harness: { runner: number; gendata: number; broker: number };
}

export interface HarnessPids {
  /** The runner itself (only its own pid: the product is its child). */
  runner: number;
  /** Roots whose whole trees are harness. */
  gendata(): number[];
  broker(): number[];
}

export class MachineWatch {
  private readonly product: TreeSampler;
  private readonly server: TreeSampler | undefined;
  private previous: { table: ProcessTable; cpu: MachineCpu; at: number } | undefined;
  private ownMicros = 0;
  private readonly started = performance.now();

  constructor(
    private readonly productRoots: () => number[],
    private readonly harness: HarnessPids,
    private readonly serverRoots?: () => number[],
  ) {
    this.product = new TreeSampler(productRoots);
    this.server = serverRoots && new TreeSampler(serverRoots);
  }

  /** The first call primes the deltas; its foreign and steal figures are 0. */
  tick(): MachineTick {
    const own = process.cpuUsage();
    const at = performance.now();
    const table = readProcessTable();
    const cpu = readMachineCpu();
    const product = this.product.sample(table);
    const server = this.server?.sample(table);
    const pidsOf = (roots: number[]): Set<number> => new Set(treeOf(table, roots).map((p) => p.pid));
    const gendata = pidsOf(this.harness.gendata());
    const broker = pidsOf(this.harness.broker());
    const runner = new Set([this.harness.runner]);
    const excluded = new Set([...pidsOf(this.productRoots()), ...pidsOf(this.serverRoots?.() ?? []), ...gendata, ...broker, ...runner]);
    const tick: MachineTick = { product, foreignCpuPercent: 0, stealPercent: 0, harness: { runner: 0, gendata: 0, broker: 0 } };
    if (this.server) tick.server = server;
    const previous = this.previous;
    const seconds = previous ? (at - previous.at) / 1000 : 0;
    if (previous && seconds > 0) {
      const percent = (ticks: number): number => (ticks / CLOCK_TICKS / seconds) * 100;
      tick.foreignCpuPercent = percent(cpuTicksBetween(previous.table, table, excluded));
      tick.stealPercent = stealPercent(previous.cpu, cpu, seconds);
      const only = (pids: Set<number>): ProcessTable => new Map([...table].filter(([pid]) => pids.has(pid)));
      tick.harness = {
        runner: percent(cpuTicksBetween(previous.table, only(runner), new Set())),
        gendata: percent(cpuTicksBetween(previous.table, only(gendata), new Set())),
        broker: percent(cpuTicksBetween(previous.table, only(broker), new Set())),
      };
    }
    this.previous = { table, cpu, at };
    const used = process.cpuUsage(own);
    this.ownMicros += used.user + used.system;
    return tick;
  }

  /** What watching cost this process, 100 = one core. */
  costPercent(): number {
    const seconds = (performance.now() - this.started) / 1000;
    return seconds > 0 ? (this.ownMicros / 1e6 / seconds) * 100 : 0;
  }
}
