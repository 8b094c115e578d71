import { emptyCounts, PROFILE_CATEGORIES } from "@bench/core";
import { combine } from "./breakdown.ts";
import { jfrSamplesToStacks } from "./jfr.ts";
import { profilerFor } from "./window.ts";
import { cpuProfileToStacks } from "./v8.ts";

const counts = (over: Partial<ReturnType<typeof emptyCounts>>) => ({ ...emptyCounts(), ...over });

describe("combine", () => {
  it("weighs each process's samples by its CPU, gives named threads their category, and sums to 100%", () => {
    const b = combine(
      [
        // a Python worker: 300 ticks split 2:1 by its samples
        { pid: 1, threads: [{ name: "python3.11", ticks: 300 }], samples: counts({ model: 20, produce: 10 }) },
        // a librdkafka thread inside it, which py-spy cannot see
        { pid: 2, threads: [{ name: "python3.11", ticks: 100 }, { name: "rdk:broker1", ticks: 100 }], samples: counts({ decode: 5 }) },
        // a process no profiler read
        { pid: 3, threads: [{ name: "sh", ticks: 100 }] },
      ],
      [{ category: "fetch", thread: /^rdk:/ }],
    );
    expect(b.totalTicks).toBe(600);
    expect(b.ticks.model).toBeCloseTo(200);
    expect(b.ticks.produce).toBeCloseTo(100);
    expect(b.ticks.decode).toBeCloseTo(100);
    expect(b.ticks.fetch).toBe(100);
    expect(b.ticks.other).toBe(100);
    expect(PROFILE_CATEGORIES.reduce((a, c) => a + b.shares[c], 0)).toBeCloseTo(1, 12);
  });

  it("shows a process whose profiler took no samples as other, never spread over the rest", () => {
    const b = combine([{ pid: 1, threads: [{ name: "java", ticks: 50 }], samples: emptyCounts() }], undefined);
    expect(b.shares.other).toBe(1);
  });
});

describe("profilerFor", () => {
  it("picks the profiler by executable", () => {
    expect(profilerFor("python3.11")).toBe("py-spy");
    expect(profilerFor("python")).toBe("py-spy");
    expect(profilerFor("java")).toBe("jfr");
    expect(profilerFor("node")).toBe("v8");
    expect(profilerFor("risingwave")).toBe("none");
  });
});

describe("cpuProfileToStacks", () => {
  it("turns V8's node tree and samples into root-first stacks and drops idle samples", () => {
    const stacks = cpuProfileToStacks({
      nodes: [
        { id: 1, callFrame: { functionName: "(root)", url: "", lineNumber: -1 }, children: [2, 4] },
        { id: 2, callFrame: { functionName: "main", url: "file:///repo/app/main.ts", lineNumber: 0 }, children: [3] },
        { id: 3, callFrame: { functionName: "run", url: "file:///repo/node_modules/.pnpm/x/node_modules/onnxruntime-node/dist/backend.js", lineNumber: 114 } },
        { id: 4, callFrame: { functionName: "(idle)", url: "", lineNumber: -1 } },
      ],
      samples: [3, 3, 2, 4, 4, 4],
    });
    expect(stacks).toEqual([
      { frames: ["main (/repo/app/main.ts:1)", "run (onnxruntime-node/dist/backend.js:115)"], count: 2 },
      { frames: ["main (/repo/app/main.ts:1)"], count: 1 },
    ]);
  });
});

describe("jfrSamplesToStacks", () => {
  it("reads jfr print --json execution samples (internal class names), leaf-first frames turned root-first and dotted", () => {
    const frame = (type: string, name: string) => ({ method: { type: { name: type }, name } });
    const json = JSON.stringify({
      recording: {
        events: [
          {
            type: "jdk.ExecutionSample",
            values: {
              stackTrace: {
                frames: [frame("org/apache/kafka/clients/producer/KafkaProducer", "send"), frame("org/apache/flink/runtime/taskmanager/Task", "run")],
              },
              sampledThread: { javaName: "Sink: out" },
            },
          },
          {
            type: "jdk.ExecutionSample",
            values: {
              stackTrace: {
                frames: [frame("org/apache/kafka/clients/producer/KafkaProducer", "send"), frame("org/apache/flink/runtime/taskmanager/Task", "run")],
              },
              sampledThread: { javaName: "Sink: out" },
            },
          },
          { type: "jdk.ExecutionSample", values: { stackTrace: null } },
        ],
      },
    });
    expect(jfrSamplesToStacks(json)).toEqual(
      [{ frames: ["[Sink: out]", "org.apache.flink.runtime.taskmanager.Task.run", "org.apache.kafka.clients.producer.KafkaProducer.send"], count: 2 }],
    );
  });
});
