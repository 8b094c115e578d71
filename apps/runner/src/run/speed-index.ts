/**
 * A speed index: how much fixed work one core of this machine does per CPU-second, so that two
 * pages from two machines (or one machine on two days) can be read side by side, and a run on a
 * machine that has slowed down (a noisy neighbour's cache traffic, a throttled host) is caught.
 *
 * One "record" of work is what the bench's products do to a record, in plain single-threaded
 * JavaScript: parse a 19-field JSON record, normalise its four metrics, a 4-16-1 MLP forward,
 * encode the result; plus a memory-bound part, dependent loads that walk a random cycle through
 * 16 MiB (past the per-core caches). It is deterministic: the same records, weights and walk every
 * time (the checksum proves it). CPU time, not wall time, is the clock, so other load on the
 * machine shows as foreign load, not here.
 */
import { makeTemplate, mulberry32, normalise } from "@bench/core";

/** Records of work per timed repetition (about 80 ms of CPU here). */
export const SPEED_RECORDS = 10_000;
/** Dependent loads per record through the 64 MiB cycle. */
export const HOPS_PER_RECORD = 16;
const CYCLE_ENTRIES = 4 * 1024 * 1024; // 16 MiB of Uint32
const POOL = 1024;
const REPEATS = 7;

export interface SpeedReading {
  /** Records of the reference work per CPU-second (the fastest repetition's). */
  recordsPerCpuSecond: number;
  /** CPU seconds of each repetition. */
  cpuSeconds: number[];
  checksum: number;
}

/**
 * Records per CPU-second of the fastest repetition. The fastest, not the median: a garbage
 * collection or a preemption only ever slows a repetition, so the fastest is the machine's speed
 * with the least of that in it (the median moved ±10 % between readings on a quiet machine).
 * What other load does is measured apart, as foreign load and steal.
 */
export function indexFromCpuMicros(records: number, cpuMicros: readonly number[]): number {
  const fastest = Math.min(...cpuMicros.filter((us) => us > 0));
  return Number.isFinite(fastest) ? records / (fastest / 1e6) : 0;
}

/** A single random cycle through every entry (Sattolo's shuffle), so a walk never short-cuts. */
function randomCycle(entries: number, seed: number): Uint32Array {
  const next = new Uint32Array(entries);
  for (let i = 0; i < entries; i++) next[i] = i;
  const rng = mulberry32(seed);
  for (let i = entries - 1; i > 0; i--) {
    const j = Math.floor(rng() * i);
    const t = next[i] as number;
    next[i] = next[j] as number;
    next[j] = t;
  }
  return next;
}

function weights(seed: number): { w1: Float64Array; b1: Float64Array; w2: Float64Array } {
  const rng = mulberry32(seed);
  const draw = (n: number): Float64Array => Float64Array.from({ length: n }, () => rng() * 2 - 1);
  return { w1: draw(64), b1: draw(16), w2: draw(17) };
}

function work(records: readonly string[], cycle: Uint32Array, net: ReturnType<typeof weights>, count: number): number {
  let checksum = 0;
  let cursor = 0;
  const hidden = new Float64Array(16);
  for (let i = 0; i < count; i++) {
    const record = JSON.parse(records[i % records.length] as string) as Parameters<typeof normalise>[0] & { event_id: string };
    const x = normalise(record);
    for (let h = 0; h < 16; h++) {
      let sum = net.b1[h] as number;
      for (let k = 0; k < 4; k++) sum += (net.w1[h * 4 + k] as number) * (x[k] as number);
      hidden[h] = sum > 0 ? sum : 0;
    }
    let out = net.w2[16] as number;
    for (let h = 0; h < 16; h++) out += (net.w2[h] as number) * (hidden[h] as number);
    const risk = 1 / (1 + Math.exp(-out));
    checksum = (checksum + JSON.stringify({ event_id: record.event_id, risk }).length) >>> 0;
    for (let hop = 0; hop < HOPS_PER_RECORD; hop++) cursor = cycle[cursor] as number;
  }
  return (checksum + cursor) >>> 0;
}

/** Built once per process (about half a second), then kept: 16 MiB in the runner's memory. */
let inputs: { records: string[]; cycle: Uint32Array; net: ReturnType<typeof weights> } | undefined;

/** Runs the reference work (untimed set-up and warm-up first) and returns its speed. */
export function measureSpeedIndex(): SpeedReading {
  inputs ??= {
    records: Array.from({ length: POOL }, (_, i) => JSON.stringify({ event_id: `speed-${i}`, ts_ms: i, ...makeTemplate(7, i) })),
    cycle: randomCycle(CYCLE_ENTRIES, 11),
    net: weights(13),
  };
  const { records, cycle, net } = inputs;
  work(records, cycle, net, SPEED_RECORDS / 4); // JIT warm-up
  const cpuMicros: number[] = [];
  let checksum = 0;
  for (let r = 0; r < REPEATS; r++) {
    const before = process.cpuUsage();
    checksum = work(records, cycle, net, SPEED_RECORDS);
    const used = process.cpuUsage(before);
    cpuMicros.push(used.user + used.system);
  }
  return { recordsPerCpuSecond: indexFromCpuMicros(SPEED_RECORDS, cpuMicros), cpuSeconds: cpuMicros.map((us) => us / 1e6), checksum };
}
