import { readFileSync } from "node:fs";
import { join } from "node:path";
import { classifyStack, classifyStacks, classifyThread, parseCollapsed, PROFILE_CATEGORIES, sharesOf } from "@bench/core";
import { nodeProfileRules } from "./profile-rules.ts";

// V8's CPU profile of the node row's JS thread (2,000/s, a shared 2-core machine) as collapsed
// stacks, trimmed to stacks with at least 2 samples; the checkout's path replaced by /repo/.
const recorded = parseCollapsed(readFileSync(join(import.meta.dirname, "__fixtures__", "v8-node-2000.txt"), "utf8"));
const { frames, threads } = nodeProfileRules;

describe("node profile rules on a recorded V8 profile", () => {
  const shares = sharesOf(classifyStacks(recorded, frames));

  it("covers every sample: shares sum to 100%, other included", () => {
    expect(PROFILE_CATEGORIES.reduce((a, c) => a + shares[c], 0)).toBeCloseTo(1, 12);
    expect(shares.other).toBeGreaterThan(0);
  });

  it("finds the model call (onnxruntime-node) with a share above zero and well under the whole", () => {
    expect(shares.model).toBeGreaterThan(0.01);
    expect(shares.model).toBeLessThan(0.5);
  });

  it("puts the addon's native produce under Producer.produce in produce, and the field scan in decode", () => {
    expect(
      classifyStack(["(anonymous) (/repo/main.ts:1)", "Producer.produce (@confluentinc/kafka-javascript/lib/producer.js:130)", "Producer"], frames),
    ).toBe("produce");
    expect(classifyStack(["(anonymous) (/repo/main.ts:1)", "numberField (/repo/fields.ts:1)", "valueStart (/repo/fields.ts:1)"], frames)).toBe("decode");
    expect(classifyStack(["(anonymous) (/repo/main.ts:1)", "decode (/repo/main.ts:1)", "decodeRecord (/repo/record.ts:1)", "parse"], frames)).toBe("decode");
    expect(classifyStack(["(anonymous) (/repo/main.ts:1)", "decode (/repo/main.ts:1)", "clip (/repo/main.ts:1)"], frames)).toBe("features");
    expect(classifyStack(["(anonymous) (/repo/main.ts:1)", "encodeOutput (/repo/record.ts:1)", "stringify"], frames)).toBe("encode");
    expect(shares.produce).toBeGreaterThan(0);
    expect(shares.decode).toBeGreaterThan(0);
  });

  it("gives librdkafka's threads to fetch and leaves the JS thread to the profiler", () => {
    expect(classifyThread("rdk:broker1", threads)).toBe("fetch");
    expect(classifyThread("node", threads)).toBeUndefined();
    expect(classifyThread("libuv-worker", threads)).toBe("other");
  });
});
