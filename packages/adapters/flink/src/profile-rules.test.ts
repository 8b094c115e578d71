import { readFileSync } from "node:fs";
import { join } from "node:path";
import { classifyStack, classifyStacks, classifyThread, parseCollapsed, PROFILE_CATEGORIES, sharesOf } from "@bench/core";
import { flinkProfileRules } from "./profile-rules.ts";

// JFR execution samples of the MiniCluster JVM (800/s, 10 s, a shared 2-core machine), as the
// runner turns them into collapsed stacks rooted in "[thread name]", cut to the thread and the
// 12 innermost frames to keep the file small.
const recordedJvm = parseCollapsed(readFileSync(join(import.meta.dirname, "__fixtures__", "jfr-flink-800.txt"), "utf8"));

// Synthetic stacks in the profilers' own naming: JFR's (dotted after the runner's conversion)
// for the MiniCluster JVM and py-spy's for the Python UDF worker. Flink was not profiled end to
// end on this machine in this change: these pin the rules' intent, not a measured split.
const { frames, threads } = flinkProfileRules;
const jvm = "org.apache.flink.runtime.taskmanager.Task.run;org.apache.flink.streaming.runtime.tasks.StreamTask.invoke";

describe("flink profile rules", () => {
  it("sort a recorded JFR profile: every Kafka/JSON category found, shares sum to 100%, other small and shown", () => {
    const shares = sharesOf(classifyStacks(recordedJvm, frames));
    expect(PROFILE_CATEGORIES.reduce((a, c) => a + shares[c], 0)).toBeCloseTo(1, 12);
    for (const c of ["fetch", "decode", "encode", "produce", "runtime"] as const) expect(shares[c]).toBeGreaterThan(0);
    expect(shares.other).toBeLessThan(0.1);
  });

  it("sorts the JVM side: Kafka fetch and produce, JSON decode and encode, the Python bridge as overhead", () => {
    expect(
      classifyStack(
        [
          ...jvm.split(";"),
          "org.apache.flink.connector.kafka.source.reader.KafkaSourceReader.pollNext",
          "org.apache.kafka.clients.consumer.KafkaConsumer.poll",
        ],
        frames,
      ),
    ).toBe("fetch");
    expect(
      classifyStack(
        [
          ...jvm.split(";"),
          "org.apache.flink.formats.json.JsonRowDataDeserializationSchema.deserialize",
          "org.apache.flink.shaded.jackson2.com.fasterxml.jackson.core.json.ReaderBasedJsonParser.nextToken",
        ],
        frames,
      ),
    ).toBe("decode");
    expect(classifyStack([...jvm.split(";"), "org.apache.flink.formats.json.JsonRowDataSerializationSchema.serialize"], frames)).toBe("encode");
    expect(
      classifyStack(
        [
          ...jvm.split(";"),
          "org.apache.flink.connector.kafka.sink.KafkaWriter.write",
          "org.apache.kafka.clients.producer.KafkaProducer.send",
          "java.util.HashMap.get",
        ],
        frames,
      ),
    ).toBe("produce");
    expect(classifyStack([...jvm.split(";"), "org.apache.flink.table.runtime.arrow.serializers.ArrowSerializer.write"], frames)).toBe("runtime");
    expect(classifyStack(["java.lang.Thread.run", "jdk.jfr.internal.EventWriter.putString"], frames)).toBe("runtime");
  });

  it("sees through the connector's shading of the Kafka client, and gives a client thread's unclaimed work to that client", () => {
    const shaded = "org.apache.flink.kafka.shaded.org.apache.kafka.clients";
    expect(classifyStack([...jvm.split(";"), `${shaded}.consumer.KafkaConsumer.poll`], frames)).toBe("fetch");
    expect(
      classifyStack(["[kafka-producer-network-thread | producer-1]", `${shaded}.producer.internals.Sender.runOnce`, "sun.nio.ch.IOUtil.write"], frames),
    ).toBe("produce");
    expect(
      classifyStack(["[kafka-producer-network-thread | producer-1]", "org.apache.flink.kafka.shaded.org.apache.kafka.common.network.Selector.poll"], frames),
    ).toBe("produce");
    expect(
      classifyStack(
        ["[Source Data Fetcher for Source: input[1] (1/1)#0]", "org.apache.flink.kafka.shaded.org.apache.kafka.common.network.Selector.poll"],
        frames,
      ),
    ).toBe("fetch");
  });

  it("sorts the Python worker: the pandas UDF's features and model, Beam's harness as overhead", () => {
    expect(classifyStack(["ScoreUdf.eval (score.py:49)", "column_stack (numpy/lib/shape_base.py:652)"], frames)).toBe("features");
    expect(classifyStack(["ScoreUdf.eval (score.py:51)", "Module._call_impl (torch/nn/modules/module.py:1194)"], frames)).toBe("model");
    expect(
      classifyStack(["_execute (apache_beam/runners/worker/sdk_worker.py:1)", "decode_from_stream (pyflink/fn_execution/coder_impl_fast.pyx:1)"], frames),
    ).toBe("runtime");
  });

  it("gives the JVM's GC and JIT threads to runtime; an unknown frame stays other; shares sum to 100%", () => {
    expect(classifyThread("GC Thread#0", threads)).toBe("runtime");
    expect(classifyThread("C2 CompilerThre", threads)).toBe("runtime");
    expect(classifyThread("Source: kafka", threads)).toBeUndefined();
    const shares = sharesOf(classifyStacks(parseCollapsed(`${jvm};org.apache.kafka.clients.consumer.KafkaConsumer.poll 6\nsome.Unknown.frame 2\n`), frames));
    expect(shares.other).toBeCloseTo(0.25);
    expect(PROFILE_CATEGORIES.reduce((a, c) => a + shares[c], 0)).toBeCloseTo(1, 12);
  });
});
