/**
 * One way of timing the model alone in every runtime: models/model_alone.py (CPython) states the
 * figures core's MODEL_ALONE_TIMING hands the other runtimes' timers, so they must be the same.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { MODEL_ALONE_TIMING, modelsDir, parseModelAloneTiming } from "@bench/core";

const constant = (source: string, name: string): number => {
  const m = new RegExp(`^${name} = ([\\d.]+)$`, "m").exec(source);
  if (!m) throw new Error(`model_alone.py has no ${name}`);
  return Number(m[1]);
};

describe("the model alone's timing", () => {
  it("is the same in model_alone.py as in every other runtime's timer", () => {
    const source = readFileSync(join(modelsDir(), "model_alone.py"), "utf8");
    expect({
      repetitions: constant(source, "REPETITIONS"), minCpuSec: constant(source, "MIN_CPU_SEC"), warmCalls: constant(source, "WARM_CALLS"),
    }).toEqual(MODEL_ALONE_TIMING);
  });

  it("keeps a timer's last line only with one positive figure a repetition", () => {
    const figures = Array.from({ length: MODEL_ALONE_TIMING.repetitions }, (_, i) => 1 + i);
    expect(parseModelAloneTiming(`warming\n${JSON.stringify({ versions: { java: "17" }, usPerRecord: figures })}\n`, "jvm"))
      .toEqual({ versions: { java: "17" }, usPerRecord: figures });
    expect(() => parseModelAloneTiming(JSON.stringify({ usPerRecord: [1] }), "jvm")).toThrow("jvm gave no");
    expect(() => parseModelAloneTiming(JSON.stringify({ usPerRecord: figures.map(() => 0) }), "jvm")).toThrow("positive figures");
    expect(() => parseModelAloneTiming("Exception in thread main", "jvm")).toThrow("jvm printed no JSON line");
  });
});
