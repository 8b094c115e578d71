import { processIndex, readingOf, yardstickRecords } from "./probe.ts";
import { YARDSTICK_VERSION } from "./runtimes.ts";

describe("yardstick probes", () => {
  it("work on the speed index's 19-field records, one JSON document per line", () => {
    const lines = yardstickRecords().trimEnd().split("\n");
    expect(lines).toHaveLength(1024);
    const first = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(Object.keys(first)).toHaveLength(19);
    expect(first.event_id).toBe("speed-0");
    expect(yardstickRecords()).toBe(yardstickRecords());
  });

  it("reads a process as records per CPU-second of its median repetition", () => {
    // 4,000 records in 10, 20, 8 and 10 ms of CPU: the median repetition took 10 ms.
    expect(processIndex(4_000, [10e6, 20e6, 8e6, 10e6, 0])).toBeCloseTo(400_000, 6);
    expect(processIndex(4_000, [0])).toBe(0);
  });

  it("is the median process, and refuses processes that did different work", () => {
    const out = (ms: number, checksum = 7) => ({ cpuNanos: [ms * 1e6], checksum, runtime: "python 3.11.2" });
    const r = readingOf(1_000, [out(10), out(5), out(20)]);
    expect(r).toEqual(
      { recordsPerCpuSecond: 100_000, processes: [100_000, 200_000, 50_000], checksum: 7, runtime: "python 3.11.2", version: YARDSTICK_VERSION },
    );
    expect(() => readingOf(1_000, [out(10), out(10, 8)])).toThrow("disagree on the checksum");
    expect(() => readingOf(1_000, [])).toThrow("no probe process ran");
  });
});
