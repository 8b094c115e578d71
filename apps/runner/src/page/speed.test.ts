import type { BenchResults, RunResult, RuntimeReading } from "../results/types.ts";
import { REFERENCE_SPEED, SPEED_INDEX_VERSION } from "../run/speed-index.ts";
import { RUNTIME_REFERENCE, YARDSTICK_VERSION } from "../yardstick/runtimes.ts";
import { microsAtReference, normalisationOf, normalisedBy, runtimeSentence } from "./speed.ts";

const reading = (recordsPerCpuSecond: number): RuntimeReading => ({
  recordsPerCpuSecond,
  processes: [recordsPerCpuSecond],
  checksum: 1,
  runtime: "x",
  version: YARDSTICK_VERSION,
});

function run(product: string, v8: number, cpython?: number): RunResult {
  return {
    product, status: "ok",
    throughput: { cpuMicrosPerInference: 10 },
    conditions: { speedIndexBefore: v8, speedIndexAfter: v8, speedIndexVersion: SPEED_INDEX_VERSION },
    ...(cpython !== undefined ? { yardstick: { before: { cpython: reading(cpython) }, after: { cpython: reading(cpython) } } } : {}),
  } as unknown as RunResult;
}

describe("µs @ ref by runtime mix", () => {
  it("normalises a CPython row by CPython's yardstick and a V8 row by V8's index", () => {
    expect(microsAtReference(run("faststream", REFERENCE_SPEED, RUNTIME_REFERENCE.cpython * 1.5))).toBeCloseTo(15, 9);
    expect(microsAtReference(run("node", REFERENCE_SPEED * 2, RUNTIME_REFERENCE.cpython * 1.5))).toBeCloseTo(20, 9);
    expect(normalisationOf(run("faststream", REFERENCE_SPEED, 1))?.by).toBe("CPython 100% (declared)");
  });

  it("falls back to V8's index, labelled, for results without runtime readings and rows without a mix", () => {
    expect(microsAtReference(run("faststream", REFERENCE_SPEED * 2))).toBeCloseTo(20, 9);
    expect(normalisationOf(run("faststream", REFERENCE_SPEED))?.by).toBe(
      "CPython 100% (declared), CPython read by V8's index (these results predate the runtime yardstick)",
    );
    expect(normalisationOf(run("risingwave", REFERENCE_SPEED))?.by).toBe("V8 index (the row declares no runtime mix)");
    expect(normalisationOf({ ...run("node", REFERENCE_SPEED), conditions: undefined } as unknown as RunResult)).toBeUndefined();
  });

  it("states the runtime readings and, per row, what normalised it", () => {
    const results = { runs: [run("faststream", REFERENCE_SPEED, 300_000), run("node", REFERENCE_SPEED, 400_000)] } as unknown as BenchResults;
    const text = runtimeSentence(results);
    expect(text).toContain("CPython 350,000 (300,000–400,000, reference 360,000)");
    expect(text).toContain("faststream: CPython 100% (declared) · node: V8 95% + native 5% (declared)");
  });

  it("says in one sentence when no run has runtime readings, and counts the runs normalised by their own profile", () => {
    expect(
      runtimeSentence({ runs: [run("quix", REFERENCE_SPEED)] } as unknown as BenchResults),
    ).toMatch(/^These results have no runtime yardstick readings \(CPython, JVM\)/);
    const profile = { processes: [{ exe: "python3.11", cpuPercent: 80, threads: [{ name: "python", cpuPercent: 80 }] }] };
    const profiled = { ...run("quix", REFERENCE_SPEED, 300_000), profile } as unknown as RunResult;
    const by = normalisedBy({ runs: [run("quix", REFERENCE_SPEED, 300_000), profiled, profiled] } as unknown as BenchResults).get("quix");
    expect(by).toEqual(["CPython 95% + native 5% (declared)", "CPython 100% (each run's own profile) in 2 runs (the first shown)"]);
  });
});
