import { readFileSync } from "node:fs";
import { join } from "node:path";
import { classifyStack, classifyStacks, classifyThread, parseCollapsed, PROFILE_CATEGORIES, sharesOf } from "@bench/core";
import { sparkProfileRules } from "./profile-rules.ts";

// `bench --profile` of this row at 4,000/s on local[2] (a shared 2-core machine): py-spy of the
// driver and the Python workers, JFR of Spark's JVM, merged by the runner; each stack cut to its
// process/thread root and 8 innermost frames to keep the file small.
const recorded = parseCollapsed(readFileSync(join(import.meta.dirname, "__fixtures__", "profile-spark-4000.txt"), "utf8"));
const { frames, threads } = sparkProfileRules;

describe("spark profile rules on a recorded profile", () => {
  const shares = sharesOf(classifyStacks(recorded, frames));

  it("covers the samples: shares sum to 100%, what no rule claims stays small", () => {
    expect(recorded.length).toBeGreaterThan(100);
    expect(PROFILE_CATEGORIES.reduce((a, c) => a + shares[c], 0)).toBeCloseTo(1, 12);
    expect(shares.other).toBeLessThan(0.1);
  });

  it("finds each stage of the work: the Kafka client's fetch and produce, decode, features, the model", () => {
    for (const c of ["fetch", "decode", "features", "model", "produce"] as const) expect(shares[c]).toBeGreaterThan(0);
  });

  it("puts pyspark's daemon loop (its gc.collect() after each task) in runtime", () => {
    const daemon = recorded.filter((s) => s.frames[s.frames.length - 1]?.startsWith("manager (daemon.py:"));
    expect(daemon.length).toBeGreaterThan(0);
    for (const s of daemon) expect(classifyStack(s.frames, frames)).toBe("runtime");
  });
});

// Synthetic stacks in the profilers' own naming (py-spy for the Python workers, JFR's dotted
// frames for the JVM): they pin the rules' intent for stacks the recording may not hold.
const worker = [
  "<module> (pyspark/daemon.py:230)",
  "main (pyspark/worker.py:3100)",
  "process (pyspark/worker.py:3050)",
  "score_batches (scoring.py:88)",
  "score_batch (scoring.py:84)",
];
const task = [
  "[Executor task launch worker for task 1.0 in stage 3.0 (TID 7)]",
  "org.apache.spark.executor.Executor$TaskRunner.run",
  "org.apache.spark.scheduler.Task.run",
];

describe("spark profile rules", () => {
  it("sorts the Python worker's stages by scoring.py's function names", () => {
    expect(
      classifyStack([...worker, "decode (scoring.py:46)", "parse (scoring.py:36)", "0x7f (orjson/orjson.cpython-311-x86_64-linux-gnu.so)"], frames),
    ).toBe("decode");
    expect(classifyStack([...worker, "decode (scoring.py:46)", "parse (scoring.py:38)", "record_problem (bench_kit.py:70)"], frames)).toBe("decode");
    expect(classifyStack([...worker, "features (scoring.py:50)", "normalise (risk_model.py:19)"], frames)).toBe("features");
    expect(
      classifyStack([...worker, "forward (scoring.py:56)", "Module._call_impl (torch/nn/modules/module.py:1194)", "0x1 (libtorch_cpu.so)"], frames),
    ).toBe("model");
    expect(classifyStack([...worker, "encode (scoring.py:70)", "output_record (bench_kit.py:86)"], frames)).toBe("encode");
    expect(classifyStack([...worker, "encode (scoring.py:71)", "0x7f (orjson/orjson.cpython-311-x86_64-linux-gnu.so)"], frames)).toBe("encode");
  });

  it("counts the Arrow exchange with the JVM as runtime, on both sides", () => {
    expect(classifyStack([...worker, "encode (scoring.py:72)", "from_arrays (pyarrow/table.pxi:100)"], frames)).toBe("runtime");
    expect(
      classifyStack(
        [
          "<module> (pyspark/daemon.py:230)",
          "main (pyspark/worker.py:3100)",
          "load_stream (pyspark/sql/pandas/serializers.py:120)",
          "read_next_batch (pyarrow/ipc.pxi:800)",
        ],
        frames,
      ),
    ).toBe("runtime");
    expect(
      classifyStack(
        [
          ...task,
          "org.apache.spark.sql.execution.python.PythonArrowInput$$anon$1.writeNextInputToStream",
          "org.apache.spark.sql.execution.arrow.ArrowWriter.write",
          "org.apache.arrow.vector.VarBinaryVector.setSafe",
        ],
        frames,
      ),
    ).toBe("runtime");
  });

  it("sorts the JVM's Kafka work: the source's consumer is fetch, the sink's producer produce", () => {
    expect(
      classifyStack(
        [
          ...task,
          "org.apache.spark.sql.kafka010.KafkaSourceRDD.compute",
          "org.apache.spark.sql.kafka010.consumer.KafkaDataConsumer.get",
          "org.apache.kafka.clients.consumer.KafkaConsumer.poll",
        ],
        frames,
      ),
    ).toBe("fetch");
    expect(
      classifyStack(
        [
          ...task,
          "org.apache.spark.sql.kafka010.consumer.KafkaDataConsumer.get",
          "org.apache.kafka.common.record.DefaultRecordBatch$StreamRecordIterator.readNext",
          "net.jpountz.lz4.LZ4JNISafeDecompressor.decompress",
        ],
        frames,
      ),
    ).toBe("fetch");
    expect(
      classifyStack(
        [
          ...task,
          "org.apache.spark.sql.kafka010.KafkaDataWriter.write",
          "org.apache.spark.sql.kafka010.KafkaRowWriter.sendRow",
          "org.apache.kafka.clients.producer.KafkaProducer.send",
        ],
        frames,
      ),
    ).toBe("produce");
    expect(classifyStack(["[kafka-producer-network-thread | producer-1]", "org.apache.kafka.common.network.Selector.poll"], frames)).toBe("produce");
    expect(
      classifyStack([...task, "org.apache.spark.sql.catalyst.expressions.GeneratedClass$GeneratedIteratorForCodegenStage1.processNext"], frames),
    ).toBe("runtime");
  });

  it("gives the JVM's own threads to runtime", () => {
    expect(classifyThread("GC Thread#0", threads)).toBe("runtime");
    expect(classifyThread("G1 Conc#0", threads)).toBe("runtime");
    expect(classifyThread("Executor task launch worker for task 1.0", threads)).toBeUndefined();
  });
});
