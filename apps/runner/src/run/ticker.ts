/**
 * The once-a-second beat of a timed run, shared by its settle, window and drain phases: read
 * the three offsets, sample the machine, record a Tick, and stop the run when the product has
 * exited, hung, or the user asked to stop.
 */
import type { KafkaAdmin } from "@bench/core";
import type { Phase, Tick } from "../results/types.ts";
import type { GendataProcess } from "./gendata-process.ts";
import type { MachineTick, MachineWatch } from "./machine.ts";
import { withRemote, type RemoteReading } from "./remote-resources.ts";
import { withServer } from "../serving/server-sample.ts";

export interface TickerOptions {
  admin: KafkaAdmin;
  inputTopic: string;
  outputTopic: string;
  readConsumed(): Promise<number>;
  /** The product's work outside its process trees, as its engine reports it (RemoteMeter). */
  readRemote?(): Promise<RemoteReading | undefined>;
  watch: MachineWatch;
  gendata: GendataProcess;
  rate: number;
  /** Consumed standing still this long with records waiting: hung. */
  hangSec: number;
  /** Why the run must stop now (the product exited, the user interrupted), if it must. */
  aborted(): string | undefined;
  onTick?(phase: Phase, tick: Tick, perSec: { offered: number; consumed: number }): void;
  /** The run restarts its broker on purpose: a read the broker does not answer is a tick with no reading. */
  brokerMayGoAway?: boolean;
}

/** Longer than any answer of a live broker under load, short enough to keep the once-a-second beat near. */
const OFFSETS_TIMEOUT_MS = 3000;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export class RunTicker {
  readonly ticks: Tick[] = [];
  /** Harness parts per window tick, averaged into the run's harness cost. */
  readonly windowHarness: Array<MachineTick["harness"]> = [];
  readonly gendataWarnings: string[] = [];
  private readonly t0 = performance.now();
  private second = 0;
  private lastProgressAt = 0;
  private behindSeconds = 0;

  constructor(private readonly opts: TickerOptions) {
    opts.watch.tick(); // primes the deltas at gendata's start
  }

  /** Counts the hang limit from now: a product just restarted (faults) has not stood still. */
  restartHangClock(): void {
    this.lastProgressAt = this.elapsed();
  }

  /** A new gendata from now on (a run that changes its offered rate mid-run): the ticker watches it, at its rate. */
  switchGendata(feed: GendataProcess, rate: number): void {
    this.opts.gendata = feed;
    this.opts.rate = rate;
    this.behindSeconds = 0;
  }

  /** The window so far was not a steady state after all: its ticks become settle ticks. */
  discardWindow(): void {
    for (const tick of this.ticks) if (tick.phase === "window") tick.phase = "settle";
    this.windowHarness.length = 0;
  }

  /** Seconds since gendata started. */
  elapsed(): number {
    return (performance.now() - this.t0) / 1000;
  }

  async next(phase: Phase): Promise<Tick> {
    const { opts } = this;
    this.second++;
    await sleep(Math.max(0, this.t0 + this.second * 1000 - performance.now()));
    const abort = opts.aborted();
    if (abort) throw new Error(abort);
    const elapsed = this.elapsed();
    const previous = this.ticks[this.ticks.length - 1];
    const offsets = await this.readOffsets();
    const remote = await (opts.brokerMayGoAway ? opts.readRemote?.().catch(() => undefined) : opts.readRemote?.());
    const machine = opts.watch.tick();
    const served = withServer(withRemote(machine.product, remote), machine.server);
    const s = served.sample;
    const tick: Tick = {
      t: Math.round(elapsed * 100) / 100,
      phase,
      ...(offsets ?? { inputEnd: previous?.inputEnd ?? 0, consumed: previous?.consumed ?? 0, outputEnd: previous?.outputEnd ?? 0, noReading: true as const }),
      cpuPercent: s?.cpuPercent ?? 0,
      memMb: s?.memMb ?? 0,
      processes: s?.processes ?? 0,
      instrument: s?.instrument ?? "pss",
      foreignCpuPercent: machine.foreignCpuPercent,
      stealPercent: machine.stealPercent,
      ...(served.server ? { server: served.server } : {}),
    };
    this.ticks.push(tick);
    if (phase === "window") this.windowHarness.push(machine.harness);
    this.watchGendata(phase, tick);
    this.watchForHang(tick, previous, elapsed);
    const perSec = (now: number, before: number | undefined): number => (previous ? (now - (before ?? 0)) / (tick.t - previous.t) : 0);
    opts.onTick?.(phase, tick, { offered: perSec(tick.inputEnd, previous?.inputEnd), consumed: perSec(tick.consumed, previous?.consumed) });
    return tick;
  }

  /**
   * The three offsets. In a run that restarts its broker (brokerMayGoAway), undefined when the
   * broker does not answer within OFFSETS_TIMEOUT_MS: a tick with no reading, never an
   * exception, so the run outlives the outage. Other runs fail on a broker that does not answer,
   * as before: carried-over offsets must never be read as a measured rate.
   */
  private async readOffsets(): Promise<{ inputEnd: number; consumed: number; outputEnd: number } | undefined> {
    const { opts } = this;
    const reads = Promise.all([opts.admin.endOffset(opts.inputTopic), opts.readConsumed(), opts.admin.endOffset(opts.outputTopic)]);
    if (!opts.brokerMayGoAway) {
      const [inputEnd, consumed, outputEnd] = await reads;
      return { inputEnd, consumed, outputEnd };
    }
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), OFFSETS_TIMEOUT_MS)));
    try {
      const read = await Promise.race([reads, timeout]);
      return read && { inputEnd: read[0], consumed: read[1], outputEnd: read[2] };
    } catch {
      return undefined;
    } finally {
      clearTimeout(timer);
      // A read still pending after the timeout may reject later: nobody waits for it any more.
      reads.catch(() => undefined);
    }
  }

  private watchGendata(phase: Phase, tick: Tick): void {
    const report = this.opts.gendata.latest();
    // A feed asked for no rate (a drain's fill, as fast as it goes) cannot fall behind one.
    if (phase !== "drain" && this.opts.rate > 0 && report && report.behind > this.opts.rate * 0.01) {
      if (++this.behindSeconds === 3) this.gendataWarnings.push(`gendata fell behind the asked rate by ${report.behind} records at ${tick.t}s`);
    } else this.behindSeconds = 0;
  }

  private watchForHang(tick: Tick, previous: Tick | undefined, elapsed: number): void {
    // No reading is not standing still: the hang limit counts from the broker's return.
    if (tick.noReading) {
      this.lastProgressAt = elapsed;
      return;
    }
    if (tick.consumed > (previous?.consumed ?? -1)) this.lastProgressAt = elapsed;
    else if (tick.consumed < tick.inputEnd && elapsed - this.lastProgressAt > this.opts.hangSec) {
      throw new Error(`hung: consumed stayed at ${tick.consumed} for ${this.opts.hangSec}s with ${tick.inputEnd - tick.consumed} records waiting`);
    }
  }
}
