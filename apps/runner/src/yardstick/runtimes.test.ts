import type { RunResult, RuntimeReading } from "../results/types.ts";
import { REFERENCE_SPEED } from "../run/speed-index.ts";
import { mixFactor, RUNTIME_REFERENCE, runtimeSpeed, YARDSTICK_VERSION } from "./runtimes.ts";

const reading = (recordsPerCpuSecond: number, version = YARDSTICK_VERSION): RuntimeReading => ({
  recordsPerCpuSecond,
  processes: [recordsPerCpuSecond],
  checksum: 1,
  runtime: "x",
  version,
});
const yardstick = (cpython: number, cpythonAfter = cpython): RunResult["yardstick"] => ({
  before: { cpython: reading(cpython) },
  after: { cpython: reading(cpythonAfter) },
});

describe("runtime yardstick normalisation", () => {
  it("gives today's V8 figure for a row whose CPU is V8 and native code", () => {
    const n = mixFactor({ shares: { v8: 0.8, native: 0.2 }, source: "declared" }, 2 * REFERENCE_SPEED, yardstick(1));
    expect(n.factor).toBeCloseTo(2, 9);
    expect(n.readBy).toEqual({ v8: "v8", native: "v8" });
  });

  it("weighs each runtime's index by the row's share of it", () => {
    // CPython at its reference (factor 1), V8 at twice its reference (factor 2): 3/4 × 1 + 1/4 × 2.
    const n = mixFactor({ shares: { cpython: 0.75, v8: 0.25 }, source: "profile" }, 2 * REFERENCE_SPEED, yardstick(RUNTIME_REFERENCE.cpython));
    expect(n.factor).toBeCloseTo(1.25, 9);
    expect(n.readBy).toEqual({ cpython: "cpython", v8: "v8" });
  });

  it("reads a runtime without a reading of this version by V8's index, and says so", () => {
    const n = mixFactor({ shares: { jvm: 1 }, source: "declared" }, REFERENCE_SPEED, yardstick(123));
    expect(n.factor).toBeCloseTo(1, 9);
    expect(n.readBy).toEqual({ jvm: "v8" });
    const old = { before: { cpython: reading(1, YARDSTICK_VERSION + 1) }, after: { cpython: reading(1) } };
    expect(runtimeSpeed(old, "cpython")).toBeUndefined();
    expect(mixFactor({ shares: { cpython: 1 }, source: "declared" }, REFERENCE_SPEED, undefined).readBy).toEqual({ cpython: "v8" });
  });

  it("takes a runtime's speed as the mean of its readings before and after the run", () => {
    expect(runtimeSpeed(yardstick(300_000, 400_000)!, "cpython")).toBe(350_000);
    expect(runtimeSpeed(yardstick(300_000)!, "jvm")).toBeUndefined();
  });
});
