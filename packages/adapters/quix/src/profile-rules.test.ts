import { readFileSync } from "node:fs";
import { join } from "node:path";
import { classifyStack, classifyStacks, classifyThread, parseCollapsed, PROFILE_CATEGORIES, sharesOf } from "@bench/core";
import { quixProfileRules } from "./profile-rules.ts";

// A py-spy `record --native --format raw` profile of this row (2,000/s, a shared 2-core
// machine), trimmed to the stacks with at least 3 samples.
const recorded = parseCollapsed(readFileSync(join(import.meta.dirname, "__fixtures__", "pyspy-quix-2000.txt"), "utf8"));
const { frames, threads } = quixProfileRules;

describe("quix profile rules on a recorded py-spy profile", () => {
  const shares = sharesOf(classifyStacks(recorded, frames));

  it("covers every sample: shares sum to 100%, other included", () => {
    expect(PROFILE_CATEGORIES.reduce((a, c) => a + shares[c], 0)).toBeCloseTo(1, 12);
  });

  it("finds the per-record model call a large part, as one-record-at-a-time scoring makes it", () => {
    expect(shares.model).toBeGreaterThan(0.15);
    expect(shares.model).toBeLessThan(0.9);
  });

  it("counts building the input tensor as feature work, the forward pass as the model call", () => {
    expect(
      classifyStack(
        [
          "main.<locals>.score (score.py:50)",
          "0x1 (libtorch_python.so.1.13.0)",
          "torch::utils::tensor_ctor (libtorch_python.so.1.13.0)",
          "0x2 (libtorch_cpu.so.1.13.0)",
        ],
        frames,
      ),
    ).toBe("features");
    expect(
      classifyStack(
        ["main.<locals>.score (score.py:54)", "Module._call_impl (torch/nn/modules/module.py:1194)", "at::native::linear (libtorch_cpu.so.1.13.0)"],
        frames,
      ),
    ).toBe("model");
  });

  it("puts polling in fetch and producing in produce, and librdkafka's threads in fetch", () => {
    expect(
      classifyStack(
        [
          "InternalConsumer.poll_row (quixstreams/internal_consumer/consumer.py:219)",
          "BaseConsumer.poll (quixstreams/kafka/consumer.py:307)",
          "Consumer_poll (confluent_kafka/cimpl.cpython-311-x86_64-linux-gnu.so)",
        ],
        frames,
      ),
    ).toBe("fetch");
    expect(
      classifyStack(
        ["StreamingDataFrame._produce (quixstreams/dataframe/dataframe.py:2128)", "InternalProducer.produce (quixstreams/internal_producer.py:199)"],
        frames,
      ),
    ).toBe("produce");
    expect(shares.fetch).toBeGreaterThan(0);
    expect(shares.produce).toBeGreaterThan(0);
    expect(classifyThread("rdk:broker1", threads)).toBe("fetch");
  });
});
