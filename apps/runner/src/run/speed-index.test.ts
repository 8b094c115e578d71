import { median } from "../metrics/stats.ts";
import {
  atReferenceSpeed,
  BENCH_USUAL_MIN_READINGS,
  BENCH_USUAL_READINGS,
  indexFromCpuMicros,
  measureSpeedIndex,
  REFERENCE_SPEED,
  SpacedSpeedIndex,
  SPEED_INDEX_VERSION,
  SPEED_ISOLATES,
} from "./speed-index.ts";

describe("speed index", () => {
  it("is records per CPU-second of the median repetition, so one preempted repetition cannot move it", () => {
    // 20,000 records in 0.2, 0.25, 0.1, 0.2 and 0.9 s of CPU: the median repetition took 0.2 s.
    expect(indexFromCpuMicros(20_000, [200_000, 250_000, 100_000, 200_000, 900_000])).toBeCloseTo(100_000, 6);
    expect(indexFromCpuMicros(20_000, [0])).toBe(0);
  });

  it("states a cost at the reference speed: µs × index ÷ reference", () => {
    expect(atReferenceSpeed(10, REFERENCE_SPEED * 2)).toBeCloseTo(20, 9);
    expect(atReferenceSpeed(10, REFERENCE_SPEED)).toBeCloseTo(10, 9);
    expect(atReferenceSpeed(10, 0)).toBe(0);
  });

  it("does the same work in every isolate (same checksum) and reports the median isolate", async () => {
    const a = await measureSpeedIndex();
    const b = await measureSpeedIndex();
    expect(a.checksum).toBe(b.checksum);
    expect(a.checksum).toBeGreaterThan(0);
    expect(a.version).toBe(SPEED_INDEX_VERSION);
    expect(a.isolates).toHaveLength(SPEED_ISOLATES);
    expect(a.isolates.every((x) => x > 0)).toBe(true);
    expect(a.recordsPerCpuSecond).toBe(median(a.isolates));
  }, 60_000);
});

describe("readings spaced by time", () => {
  it("reuses a recent reading before a run, and always reads after one", async () => {
    let clock = 0;
    let readings = 0;
    const index = new SpacedSpeedIndex(60_000, async () => 600_000 + ++readings, () => clock);
    expect(await index.before()).toBe(600_001); // nothing to reuse yet
    clock = 30_000;
    expect(await index.after()).toBe(600_002);
    clock = 50_000;
    expect(await index.before()).toBe(600_002); // the previous run's after, 20 s old
    clock = 200_000;
    expect(await index.before()).toBe(600_003); // too old: read again
    expect(readings).toBe(3);
  });

  it("says the bench's usual speed once it has enough readings: the median of the latest", async () => {
    let next = 0;
    const values = [500_000, 600_000, 550_000, 620_000, 580_000];
    const index = new SpacedSpeedIndex(60_000, async () => values[next++ % values.length] as number);
    for (let i = 1; i < BENCH_USUAL_MIN_READINGS; i++) await index.after();
    expect(index.usual()).toBeUndefined();
    await index.after();
    expect(index.usual()).toBe(580_000);
    // Only the latest BENCH_USUAL_READINGS count: a slow phase long enough moves the usual speed down.
    const slow = new SpacedSpeedIndex(60_000, async () => (next++ < BENCH_USUAL_READINGS ? 600_000 : 400_000));
    next = 0;
    for (let i = 0; i < 2 * BENCH_USUAL_READINGS; i++) await slow.after();
    expect(slow.usual()).toBe(400_000);
  });
});
