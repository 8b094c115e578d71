import { readFileSync } from "node:fs";
import { join } from "node:path";
import { classifyStack, classifyStacks, classifyThread, parseCollapsed, PROFILE_CATEGORIES, sharesOf } from "@bench/core";
import { confluentKafkaProfileRules } from "./profile-rules.ts";

// The py-spy `record --native --format raw` profile of this row from `bench --profile` at
// 30,000/s (a shared, busy 2-core machine), the process prefix taken off each stack.
const recorded = parseCollapsed(readFileSync(join(import.meta.dirname, "__fixtures__", "pyspy-confluent-kafka-30000.txt"), "utf8"));
const { frames, threads } = confluentKafkaProfileRules;
const CIMPL = "(confluent_kafka/cimpl.cpython-311-x86_64-linux-gnu.so)";
const RDK = "(librdkafka-0cb94173.so.1)";
const withFrame = (pattern: RegExp) => recorded.filter((s) => s.frames.some((f) => pattern.test(f)));

describe("confluent-kafka profile rules on a recorded py-spy profile", () => {
  const shares = sharesOf(classifyStacks(recorded, frames));

  it("covers every sample, and a rule claims nearly all of them", () => {
    expect(recorded.length).toBeGreaterThan(20);
    expect(PROFILE_CATEGORIES.reduce((a, c) => a + shares[c], 0)).toBeCloseTo(1, 12);
    expect(shares.other).toBeLessThan(0.05);
  });

  it("puts everything under the consumer's C calls in fetch, under the producer's in produce", () => {
    const consumer = withFrame(/^Consumer_\w+ \(/);
    const producer = withFrame(/^(Producer_\w+|dr_msg_cb) \(/);
    expect(consumer.length).toBeGreaterThan(0);
    expect(producer.length).toBeGreaterThan(0);
    for (const s of consumer) expect(classifyStack(s.frames, frames)).toBe("fetch");
    for (const s of producer) expect(classifyStack(s.frames, frames)).toBe("produce");
  });

  it("sorts orjson by the app function around it: loads is decode, dumps is encode", () => {
    for (const s of withFrame(/^decode \(main\.py/)) expect(classifyStack(s.frames, frames)).toMatch(/^(decode|fetch)$/);
    for (const s of withFrame(/^encode \(main\.py/)) expect(classifyStack(s.frames, frames)).toBe("encode");
    // orjson's frames are often bare addresses; the enclosing function decides.
    expect(classifyStack(["main (main.py:149)", "decode (main.py:91)", "0x7f01 (orjson/orjson.cpython-311-x86_64-linux-gnu.so)"], frames)).toBe("decode");
    expect(
      classifyStack(["main (main.py:151)", "publish (main.py:120)", "encode (main.py:112)", "0x7f02 (orjson/orjson.cpython-311-x86_64-linux-gnu.so)"], frames),
    ).toBe("encode");
    // Reading a message's bytes is the client's work, even inside decode.
    expect(classifyStack(["main (main.py:149)", "decode (main.py:91)", `Message_value ${CIMPL}`], frames)).toBe("fetch");
  });

  it("finds decoding every record whole a larger part than the batch's one forward", () => {
    expect(shares.decode).toBeGreaterThan(shares.model);
    expect(shares.features).toBeGreaterThan(0);
    expect(shares.encode).toBeGreaterThan(0);
  });

  it("counts building the input tensor as feature work, the forward pass as the model call", () => {
    expect(
      classifyStack(
        [
          "main (main.py:150)",
          "score (main.py:105)",
          "0x1 (libtorch_python.so.1.13.0)",
          "torch::utils::tensor_ctor (libtorch_python.so.1.13.0)",
          "0x2 (libtorch_cpu.so.1.13.0)",
        ],
        frames,
      ),
    ).toBe("features");
    expect(
      classifyStack(["main (main.py:150)", "score (main.py:105)", "score.<locals>.<listcomp> (main.py:105)", "normalise (risk_model.py:19)"], frames),
    ).toBe("features");
    expect(
      classifyStack(
        ["main (main.py:150)", "score (main.py:107)", "Module._call_impl (torch/nn/modules/module.py:1194)", "at::native::linear (libtorch_cpu.so.1.13.0)"],
        frames,
      ),
    ).toBe("model");
    // The app as it is now: the kit's RiskScorer builds the feature tensor in one operation.
    expect(
      classifyStack(
        [
          "main (main.py:113)",
          "RiskScorer.risks (bench_kit.py:150)",
          "RiskScorer.risks_of_metrics (bench_kit.py:144)",
          "RiskScorer.features (bench_kit.py:137)",
          "at::native::div (libtorch_cpu.so.1.13.0)",
        ],
        frames,
      ),
    ).toBe("features");
    expect(
      classifyStack(["main (main.py:113)", "decode (main.py:70)", "RecordDecoder.decode (bench_kit.py:100)", "record_problem (bench_kit.py:70)"], frames),
    ).toBe("decode");
  });

  it("keeps the delivery wait, the delivery callback and the commit where they belong", () => {
    expect(classifyStack(["main (main.py:115)", `Producer_flush ${CIMPL}`, "clock_gettime (libc.so.6)"], frames)).toBe("produce");
    expect(
      classifyStack(
        ["main (main.py:115)", `Producer_flush ${CIMPL}`, `rd_kafka_flush ${RDK}`, `dr_msg_cb ${CIMPL}`, "FailedDeliveries.report (main.py:50)"],
        frames,
      ),
    ).toBe("produce");
    expect(classifyStack(["main (main.py:116)", "FailedDeliveries.raise_if_any (main.py:54)"], frames)).toBe("produce");
    expect(
      classifyStack(["main (main.py:154)", `Consumer_commit ${CIMPL}`, `rd_kafka_commit_queue ${RDK}`, "pthread_cond_wait (libc.so.6)"], frames),
    ).toBe("fetch");
  });

  it("counts the loop's own frees as runtime, and librdkafka's threads as fetch", () => {
    expect(classifyStack(["<module> (main.py:161)", "main (main.py:149)", "munmap (libc.so.6)"], frames)).toBe("runtime");
    expect(classifyThread("rdk:broker1", threads)).toBe("fetch");
    expect(classifyThread("rdk:main", threads)).toBe("fetch");
  });
});
