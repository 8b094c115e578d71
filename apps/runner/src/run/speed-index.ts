/**
 * A speed index: how much fixed work one core of this machine does per CPU-second, so that two
 * pages from two machines (or one machine on two days) can be read side by side, and each row's
 * cost can be given at a reference speed (`atReferenceSpeed`).
 *
 * One "record" of work is what the bench's products do to a record, in plain single-threaded
 * JavaScript: parse a 19-field JSON record, normalise its four metrics, a 4-16-1 MLP forward,
 * encode the result. It is deterministic: the same records and weights every time (the checksum
 * proves it). CPU time, not wall time, is the clock, so other load on the machine shows as
 * foreign load, not here.
 *
 * Version 2. Version 1 added 16 dependent loads per record through a 16 MiB random
 * cycle and took the best of five isolates. That walk was what swung it: read alone on a quiet
 * machine it spread 861k–1,767k records per CPU-second (2× apart) while the JSON part alone held
 * within ±1.5 % in 11 of 12 isolates, because whether its 16 MiB lands on transparent huge pages
 * (`madvise` here) is up to the kernel, not the bench; and the products do no such walk. Now: many
 * short repetitions in several fresh isolates, each isolate's median, and the median of those, so
 * neither a GC pause, a preemption nor one isolate in a slow mode moves the reading.
 */
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { makeTemplate, mulberry32 } from "@bench/core";
import { median } from "../metrics/stats.ts";

/** Bump when the work or the statistic changes: readings of two versions are not comparable. */
export const SPEED_INDEX_VERSION = 2;
/** Records of work per timed repetition (several ms of CPU: well above process.cpuUsage's µs resolution). */
export const SPEED_RECORDS = 5_000;
/** Timed repetitions per isolate. */
export const SPEED_REPEATS = 9;
/** Fresh isolates per reading. */
export const SPEED_ISOLATES = 5;
/**
 * The speed at which `atReferenceSpeed` states a row's cost: a round figure near this index's
 * median on the 2-core VM this bench was built on (docs/definitions.md). A
 * machine reading 2× this has each row's µs doubled to say what it would cost at the reference speed.
 */
export const REFERENCE_SPEED = 650_000;
const WARMUP_RECORDS = 20_000;
const POOL = 1024;

export interface SpeedReading {
  /** Records of the reference work per CPU-second: the median over isolates of each one's median repetition. */
  recordsPerCpuSecond: number;
  /** Each isolate's median, for the record. */
  isolates: number[];
  checksum: number;
  version: number;
}

/** Records per CPU-second of the median repetition (repetitions of no measurable CPU are left out). */
export function indexFromCpuMicros(records: number, cpuMicros: readonly number[]): number {
  const timed = cpuMicros.filter((us) => us > 0);
  return timed.length === 0 ? 0 : records / (median(timed) / 1e6);
}

/**
 * A row's µs of CPU per inference as it would be on a machine whose index reads REFERENCE_SPEED:
 * a machine twice as fast reads twice the index and spends half the µs, so µs × index ÷ reference.
 */
export function atReferenceSpeed(cpuMicrosPerInference: number, speedIndex: number): number {
  return speedIndex > 0 ? (cpuMicrosPerInference * speedIndex) / REFERENCE_SPEED : 0;
}

function weights(seed: number): { w1: Float64Array; b1: Float64Array; w2: Float64Array } {
  const rng = mulberry32(seed);
  const draw = (n: number): Float64Array => Float64Array.from({ length: n }, () => rng() * 2 - 1);
  return { w1: draw(64), b1: draw(16), w2: draw(17) };
}

let inputs: { records: string[]; net: ReturnType<typeof weights> } | undefined;

function inIsolate(data: object): Promise<{ cpuMicros: number[]; checksum: number }> {
  return new Promise((resolve, reject) => {
    // The timed work is plain JavaScript (speed-index-worker.mjs): the same code in every isolate.
    const worker = new Worker(join(import.meta.dirname, "speed-index-worker.mjs"), { workerData: data });
    worker.once("message", (m: { cpuMicros: number[]; checksum: number }) => {
      resolve(m);
      void worker.terminate();
    });
    worker.once("error", reject);
  });
}

/** Runs the reference work in several fresh isolates, one after another (about half a second of CPU). */
export async function measureSpeedIndex(): Promise<SpeedReading> {
  inputs ??= {
    records: Array.from({ length: POOL }, (_, i) => JSON.stringify({ event_id: `speed-${i}`, ts_ms: i, ...makeTemplate(7, i) })),
    net: weights(13),
  };
  const data = { ...inputs, perRep: SPEED_RECORDS, reps: SPEED_REPEATS, warmup: WARMUP_RECORDS };
  const isolates: number[] = [];
  let checksum = 0;
  for (let i = 0; i < SPEED_ISOLATES; i++) {
    const result = await inIsolate(data);
    isolates.push(indexFromCpuMicros(SPEED_RECORDS, result.cpuMicros));
    checksum = result.checksum;
  }
  return { recordsPerCpuSecond: median(isolates), isolates, checksum, version: SPEED_INDEX_VERSION };
}

/**
 * Readings spaced by time rather than two per run. A run's "after" reading is always taken (the
 * product has just stopped); the next run's "before" reuses it when it is at most `spacingMs`
 * old, so each run still records the readings nearest before and after it, and a bench of many
 * short runs reads the index about once a run instead of twice.
 */
/** Readings before and after a run. */
export interface SpeedReadings {
  before(): Promise<number>;
  after(): Promise<number>;
  /** The speed the bench usually reads lately, across rows (BENCH_USUAL_READINGS); undefined when it has too few readings or keeps none. */
  usual?(): number | undefined;
}

/**
 * The bench's usual speed is the median of its last this many readings (about a quarter of an
 * hour of paced runs), across rows, so that a search that runs wholly in a slow phase is still
 * read against the machine's usual speed: its own earlier runs, as slow as the rest, would flag
 * none of its saturated steps.
 */
export const BENCH_USUAL_READINGS = 30;
/** Fewer readings than this say nothing usual yet. */
export const BENCH_USUAL_MIN_READINGS = 5;

const freshReading = async (): Promise<number> => (await measureSpeedIndex()).recordsPerCpuSecond;

/** The bench's spaced readings when it has them (BenchContext.speedIndex), else a fresh reading each time. */
export function speedReadings(ctx: { speedIndex?: SpeedReadings }): SpeedReadings {
  return ctx.speedIndex ?? { before: freshReading, after: freshReading };
}

export class SpacedSpeedIndex implements SpeedReadings {
  private last: { atMs: number; value: number } | undefined;
  private readonly recent: number[] = [];

  constructor(
    private readonly spacingMs: number,
    private readonly read: () => Promise<number> = freshReading,
    private readonly now: () => number = Date.now,
  ) {}

  /** Before a run: the latest reading if recent enough, else a new one. */
  async before(): Promise<number> {
    if (this.last && this.now() - this.last.atMs <= this.spacingMs) return this.last.value;
    return this.after();
  }

  /** After a run: always a new reading. */
  async after(): Promise<number> {
    const value = await this.read();
    this.last = { atMs: this.now(), value };
    this.recent.push(value);
    if (this.recent.length > BENCH_USUAL_READINGS) this.recent.shift();
    return value;
  }

  /** The median of the last BENCH_USUAL_READINGS readings, once there are BENCH_USUAL_MIN_READINGS. */
  usual(): number | undefined {
    return this.recent.length >= BENCH_USUAL_MIN_READINGS ? median(this.recent) : undefined;
  }
}

/** Readings reused across at most this gap: a minute of other runs between them. */
export const SPEED_INDEX_SPACING_MS = 60_000;
