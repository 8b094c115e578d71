import { readFileSync } from "node:fs";
import { join } from "node:path";
import { classifyStack, classifyStacks, classifyThread, parseCollapsed, PROFILE_CATEGORIES, sharesOf } from "@bench/core";
import { kafkaStreamsProfileRules } from "./profile-rules.ts";

// JFR execution samples of the Streams app's JVM at 2,000 records/s (10 s, a shared 2-core
// machine), as the runner turns them into collapsed stacks rooted in "[thread name]", cut to
// the thread and its 12 innermost frames; the run's application id is written APP-ID.
const recorded = parseCollapsed(readFileSync(join(import.meta.dirname, "__fixtures__", "jfr-kafka-streams-2000.txt"), "utf8"));
const { frames, threads } = kafkaStreamsProfileRules;
const thread = "[APP-ID-e4c6c932-f177-4759-bb89-81d050ba2340-StreamThread-1]";
const task = [
  thread,
  "org.apache.kafka.streams.processor.internals.StreamThread.run",
  "org.apache.kafka.streams.processor.internals.StreamTask.process",
  "bench.ScoreProcessor.process",
];

describe("kafka-streams profile rules", () => {
  it("sort a recorded JFR profile: fetch, decode, encode, produce and runtime found, nothing left as other, shares sum to 100%", () => {
    const shares = sharesOf(classifyStacks(recorded, frames));
    expect(PROFILE_CATEGORIES.reduce((a, c) => a + shares[c], 0)).toBeCloseTo(1, 12);
    for (const c of ["fetch", "decode", "encode", "produce", "runtime"] as const) expect(shares[c]).toBeGreaterThan(0);
    expect(shares.other).toBe(0);
  });

  it("splits the processor's record: Jackson's parse and the check as decode, the features, ONNX Runtime's run, Jackson's write as encode", () => {
    expect(
      classifyStack(
        [
          ...task,
          "com.fasterxml.jackson.databind.ObjectMapper.readTree",
          "com.fasterxml.jackson.databind.deser.std.BaseNodeDeserializer._deserializeContainerNoRecursion",
          "java.util.LinkedHashMap.put",
        ],
        frames,
      ),
    ).toBe("decode");
    expect(classifyStack([...task, "com.fasterxml.jackson.core.json.UTF8StreamJsonParser._parseName"], frames)).toBe("decode");
    expect(classifyStack([...task, "bench.RecordCheck.problem", "com.fasterxml.jackson.databind.node.ObjectNode.path"], frames)).toBe("decode");
    expect(classifyStack([...task, "bench.RiskModel.score", "com.fasterxml.jackson.databind.node.DoubleNode.doubleValue"], frames)).toBe("features");
    expect(
      classifyStack([...task, "bench.RiskModel.score", "ai.onnxruntime.OnnxTensor.createTensor", "ai.onnxruntime.OrtUtil.prepareBuffer"], frames),
    ).toBe("features");
    expect(classifyStack([...task, "bench.RiskModel.score", "ai.onnxruntime.OrtSession.run", "ai.onnxruntime.OrtSession.run"], frames)).toBe("model");
    expect(
      classifyStack(
        [
          ...task,
          "com.fasterxml.jackson.databind.ObjectMapper.writeValueAsBytes",
          "com.fasterxml.jackson.core.json.UTF8JsonGenerator.writeNumber",
          "java.lang.Double.toString",
        ],
        frames,
      ),
    ).toBe("encode");
    // process()'s own work is assembling the output node.
    expect(classifyStack([...task, "com.fasterxml.jackson.databind.node.ObjectNode.put", "java.util.LinkedHashMap.put"], frames)).toBe("encode");
  });

  it("served, counts the features as features and the call (its messages, grpc-java, its Netty transport) as the model", () => {
    const served = [...task, "bench.ServedModel.score"];
    expect(classifyStack([...served, "com.fasterxml.jackson.databind.node.DoubleNode.doubleValue"], frames)).toBe("features");
    expect(classifyStack([...served, "bench.InferMessages.request", "com.google.protobuf.CodedOutputStream$ArrayEncoder.writeTag"], frames)).toBe("model");
    const call = [...served, "bench.ServedModel.call", "io.grpc.stub.ClientCalls.blockingUnaryCall"];
    expect(classifyStack([...call, "java.util.concurrent.locks.LockSupport.park"], frames)).toBe("model");
    expect(classifyStack(["[grpc-nio-worker-ELG-1-2]", "io.grpc.netty.shaded.io.netty.channel.nio.NioEventLoop.run", "sun.nio.ch.EPoll.wait"], frames))
      .toBe("model");
  });

  it("gives Kafka's shared record and network code to the client above it", () => {
    const poll = [thread, "org.apache.kafka.streams.processor.internals.StreamThread.pollRequests", "org.apache.kafka.clients.consumer.KafkaConsumer.poll"];
    expect(classifyStack([...poll, "org.apache.kafka.common.record.DefaultRecord.readFrom"], frames)).toBe("fetch");
    expect(
      classifyStack([...poll, "org.apache.kafka.common.compress.Lz4BlockInputStream.read", "net.jpountz.lz4.LZ4JNISafeDecompressor.decompress"], frames),
    ).toBe("fetch");
    const send = [...task, "org.apache.kafka.streams.processor.internals.RecordCollectorImpl.send", "org.apache.kafka.clients.producer.KafkaProducer.send"];
    expect(classifyStack([...send, "org.apache.kafka.common.record.MemoryRecordsBuilder.append"], frames)).toBe("produce");
    expect(classifyStack([...send, "org.apache.kafka.common.compress.Lz4BlockOutputStream.write"], frames)).toBe("produce");
    expect(
      classifyStack(
        [
          "[kafka-producer-network-thread | APP-ID-StreamThread-1-producer]",
          "org.apache.kafka.common.network.Selector.poll",
          "sun.nio.ch.EPollSelectorImpl.doSelect",
        ],
        frames,
      ),
    ).toBe("produce");
  });

  it("counts Streams' own loop, its other threads and the profiler's event writing as runtime", () => {
    expect(
      classifyStack([thread, "org.apache.kafka.streams.processor.internals.StreamThread.runOnceWithoutProcessingThreads", "java.util.HashMap.get"], frames),
    ).toBe("runtime");
    expect(classifyStack([thread, "java.util.ArrayList.forEach"], frames)).toBe("runtime");
    expect(classifyStack(["[kafka-coordinator-heartbeat-thread | APP-ID]", "java.lang.Object.wait"], frames)).toBe("runtime");
    expect(classifyStack(["[Attach Listener]", "jdk.jfr.internal.EventWriter.putString"], frames)).toBe("runtime");
  });

  it("gives the JVM's GC and JIT threads to runtime and leaves an unknown frame as other", () => {
    expect(classifyThread("GC Thread#0", threads)).toBe("runtime");
    expect(classifyThread("C2 CompilerThre", threads)).toBe("runtime");
    expect(classifyThread("bench.kafka-str", threads)).toBeUndefined();
    expect(classifyStack(["[main]", "some.Unknown.frame"], frames)).toBe("other");
  });
});
