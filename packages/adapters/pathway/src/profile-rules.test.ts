import { readFileSync } from "node:fs";
import { join } from "node:path";
import { classifyStack, classifyStacks, classifyThread, parseCollapsed, PROFILE_CATEGORIES, sharesOf } from "@bench/core";
import { pathwayProfileRules } from "./profile-rules.ts";

// A py-spy `record --native --format raw` profile of this row's app (5,000/s offered, a shared
// 2-core machine, 10 s at 50 samples/s).
const recorded = parseCollapsed(readFileSync(join(import.meta.dirname, "__fixtures__", "pyspy-pathway-5000.txt"), "utf8"));
const { frames, threads } = pathwayProfileRules;
const holding = (name: string) => recorded.filter((s) => s.frames.some((f) => f.startsWith(name)));

describe("pathway profile rules on a recorded py-spy profile", () => {
  const counts = classifyStacks(recorded, frames);
  const shares = sharesOf(counts);

  it("covers every sample: shares sum to 100%, other included", () => {
    expect(recorded.length).toBeGreaterThan(20);
    expect(PROFILE_CATEGORIES.reduce((a, c) => a + shares[c], 0)).toBeCloseTo(1, 12);
  });

  it("finds each step of the UDF in its category", () => {
    for (const [name, category] of [["decoded (", "decode"], ["encoded (", "encode"], ["normalise (", "features"]] as const) {
      const stacks = holding(name);
      expect(stacks.length).toBeGreaterThan(0);
      for (const s of stacks) expect(classifyStack(s.frames, frames)).toBe(category);
    }
    expect(counts.decode).toBeGreaterThan(0);
    expect(counts.model).toBeGreaterThan(0);
    expect(counts.features).toBeGreaterThan(0);
  });

  it("puts the torch forward under forward() in model and the feature list in features", () => {
    for (const s of holding("Linear.forward (")) expect(classifyStack(s.frames, frames)).toBe("model");
    for (const s of holding("forward.<locals>.<listcomp> (")) expect(classifyStack(s.frames, frames)).toBe("features");
  });

  it("leaves the stripped engine's own frames to runtime, and the UDF it calls to the UDF's steps", () => {
    expect(classifyStack(["0x7f01 (pathway/engine.abi3.so)", "0x7f02 (pathway/engine.abi3.so)"], frames)).toBe("runtime");
    expect(classifyStack(["0x7f01 (pathway/engine.abi3.so)", "score (main.py:128)", "decoded (main.py:98)", "0x7f03 (libc.so.6)"], frames)).toBe("decode");
  });

  it("sorts the threads py-spy does not see by name", () => {
    expect(classifyThread("rdk:broker1", threads)).toBe("fetch");
    expect(classifyThread("pathway:connect", threads)).toBe("fetch");
    expect(classifyThread("pathway:output_", threads)).toBe("produce");
    expect(classifyThread("producer pollin", threads)).toBe("produce");
    expect(classifyThread("pathway:logger", threads)).toBe("runtime");
    // The workers run the UDF: their CPU is split as py-spy's samples are, never claimed whole.
    expect(classifyThread("pathway:work-0", threads)).toBeUndefined();
    expect(classifyThread("python", threads)).toBeUndefined();
  });
});
