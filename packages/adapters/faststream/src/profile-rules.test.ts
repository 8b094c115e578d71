import { readFileSync } from "node:fs";
import { join } from "node:path";
import { classifyStack, classifyStacks, parseCollapsed, PROFILE_CATEGORIES, sharesOf } from "@bench/core";
import { faststreamProfileRules } from "./profile-rules.ts";

// A py-spy `record --native --format raw` profile of this row (3,000/s, a shared 2-core
// machine), trimmed to the stacks with at least 4 samples.
const recorded = parseCollapsed(readFileSync(join(import.meta.dirname, "__fixtures__", "pyspy-faststream-3000.txt"), "utf8"));
const { frames } = faststreamProfileRules;

describe("faststream profile rules on a recorded py-spy profile", () => {
  const shares = sharesOf(classifyStacks(recorded, frames));

  it("covers every sample: shares sum to 100%, other included", () => {
    expect(recorded.length).toBeGreaterThan(20);
    expect(PROFILE_CATEGORIES.reduce((a, c) => a + shares[c], 0)).toBeCloseTo(1, 12);
  });

  it("puts aiokafka's lz4 compression of outgoing batches in produce, not in fetch", () => {
    const lz4 = recorded.filter((s) => s.frames.some((f) => f.startsWith("lz4_encode ")));
    expect(lz4.length).toBeGreaterThan(0);
    for (const s of lz4) expect(classifyStack(s.frames, frames)).toBe("produce");
  });

  it("puts the per-message correlation id under publish in produce", () => {
    const corId = recorded.filter((s) => s.frames.some((f) => f.startsWith("gen_cor_id ")) && s.frames.some((f) => f.startsWith("DefaultPublisher.publish ")));
    expect(corId.length).toBeGreaterThan(0);
    for (const s of corId) expect(classifyStack(s.frames, frames)).toBe("produce");
  });

  it("finds publishing the largest part at this rate, as the issue's first look did", () => {
    const largest = PROFILE_CATEGORIES.reduce((a, c) => (shares[c] > shares[a] ? c : a));
    expect(largest).toBe("produce");
  });

  it("classifies the feature list comprehension by its qualified name", () => {
    expect(classifyStack(["score (main.py:63)", "score.<locals>.<listcomp> (main.py:64)", "normalise (risk_model.py:40)"], frames)).toBe("features");
    expect(classifyStack(["score (main.py:68)", "Module._call_impl (torch/nn/modules/module.py:1194)", "0x1 (libtorch_cpu.so)"], frames)).toBe("model");
  });
});
