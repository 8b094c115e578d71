import { indexFromCpuMicros, measureSpeedIndex, SPEED_ISOLATES } from "./speed-index.ts";

describe("speed index", () => {
  it("is records per CPU-second of the fastest repetition", () => {
    // 20,000 records in 0.2 s, 0.25 s and 0.1 s of CPU: 100k, 80k and 200k/s; the fastest, 200k.
    expect(indexFromCpuMicros(20_000, [200_000, 250_000, 100_000])).toBeCloseTo(200_000, 6);
    expect(indexFromCpuMicros(20_000, [0])).toBe(0);
  });

  it("does the same work in every isolate (same checksum) and reports the best isolate", async () => {
    const a = await measureSpeedIndex();
    const b = await measureSpeedIndex();
    expect(a.checksum).toBe(b.checksum);
    expect(a.isolates).toHaveLength(SPEED_ISOLATES);
    expect(a.isolates.every((x) => x > 0)).toBe(true);
    expect(a.recordsPerCpuSecond).toBe(Math.max(...a.isolates));
  }, 60_000);
});
