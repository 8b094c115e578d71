import type { BenchResults, RunResult } from "../results/types.ts";
import { parseSupplied, runtimesRead, withoutRuntimes, withSupplied } from "./supplied.ts";

const results = (runs: Array<Partial<RunResult>>): BenchResults => ({ runs } as unknown as BenchResults);

describe("supplied runtime readings", () => {
  it("reads a probe's ns per record or records per CPU-second", () => {
    const r = parseSupplied("cpython=2500ns,jvm=950000", "intel");
    expect(r.cpython?.recordsPerCpuSecond).toBeCloseTo(400_000, 6);
    expect(r.cpython?.runtime).toBe("supplied: cpython=2500ns (intel)");
    expect(r.jvm?.recordsPerCpuSecond).toBe(950_000);
    expect(() => parseSupplied("pypy=3", "x")).toThrow("not a runtime reading");
  });

  it("puts them on every run in place of its own, so both sides are read by one probe", () => {
    const own = { recordsPerCpuSecond: 1, processes: [1], checksum: 1, runtime: "own", version: 1 };
    const before = results([{ product: "a", yardstick: { before: { cpython: own, jvm: own }, after: { cpython: own, jvm: own } } }, { product: "b" }]);
    const after = withSupplied(before, parseSupplied("cpython=1000ns", "here"));
    expect(after.runs.map((r) => r.yardstick?.before.cpython?.recordsPerCpuSecond)).toEqual([1e6, 1e6]);
    expect(after.runs[0]?.yardstick?.after.jvm).toBe(own);
    expect([...runtimesRead(after)].sort()).toEqual(["cpython", "jvm"]);
    expect([...runtimesRead(withoutRuntimes(after, new Set(["jvm"])))]).toEqual(["cpython"]);
  });
});
