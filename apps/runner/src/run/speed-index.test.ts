import { indexFromCpuMicros, measureSpeedIndex, SPEED_RECORDS } from "./speed-index.ts";

describe("speed index", () => {
  it("is records per CPU-second of the fastest repetition", () => {
    // 20,000 records in 0.2 s, 0.25 s and 0.1 s of CPU: 100k, 80k and 200k/s; the fastest, 200k.
    expect(indexFromCpuMicros(20_000, [200_000, 250_000, 100_000])).toBeCloseTo(200_000, 6);
    expect(indexFromCpuMicros(20_000, [0])).toBe(0);
  });

  it("does the same work every time (same checksum) and reports a positive speed", () => {
    const a = measureSpeedIndex();
    const b = measureSpeedIndex();
    expect(a.checksum).toBe(b.checksum);
    expect(a.cpuSeconds).toHaveLength(7);
    expect(a.recordsPerCpuSecond).toBeGreaterThan(0);
    expect(a.recordsPerCpuSecond).toBeCloseTo(indexFromCpuMicros(SPEED_RECORDS, a.cpuSeconds.map((s) => s * 1e6)), 6);
  }, 60_000);
});
