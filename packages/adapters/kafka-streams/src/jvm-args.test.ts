import { join } from "node:path";
import { KAFKA_SETTINGS, type RunContext } from "@bench/core";
import { appEnv, HEAP, jvmArgs } from "./jvm-args.ts";

const built = {
  classpath: "/cache/classes-abc:/cache/jars-def/libs/*",
  classesDir: "/cache/classes-abc",
  onnxNativeDir: "/cache/onnxruntime-1.29.0-native/ai/onnxruntime/native/linux-x64",
};

const ctx: RunContext = {
  bootstrap: "127.0.0.1:9092",
  kafka: KAFKA_SETTINGS,
  inputTopic: "in",
  outputTopic: "out",
  groupId: "g",
  parallelism: 2,
  guarantee: "at-least-once" as const,
  runDir: "/runs/r1",
  stateDir: "/runs/r1/state",
  repoRoot: "/repo",
  modelsDir: "/repo/models",
  cacheDir: "/cache",
  log: () => undefined,
};

describe("the Streams app's JVM", () => {
  it("runs the main class on the built classpath, loading ONNX Runtime's native libraries from the cache", () => {
    const args = jvmArgs(built);
    expect(args.slice(-3)).toEqual(["-cp", built.classpath, "bench.ScoreApp"]);
    expect(args).toContain(`-Xmx${HEAP}`);
    expect(args).toContain(`-Donnxruntime.native.path=${built.onnxNativeDir}`);
    expect(args).toContain("-Dorg.slf4j.simpleLogger.defaultLogLevel=info");
  });

  it("gets the run's settings, the Java-named client settings and a state folder in the run's folder", () => {
    const env = appEnv(ctx, "/jdk");
    expect(env).toMatchObject(
      {
        BENCH_BOOTSTRAP: "127.0.0.1:9092",
        BENCH_INPUT_TOPIC: "in",
        BENCH_OUTPUT_TOPIC: "out",
        BENCH_GROUP_ID: "g",
        BENCH_PARALLELISM: "2",
        BENCH_MODELS_DIR: "/repo/models",
        JAVA_HOME: "/jdk",
      },
    );
    expect(env.BENCH_STATE_DIR).toBe(join("/runs/r1", "streams-state"));
    expect(JSON.parse(env.BENCH_JAVA_CLIENT as string).consumer["fetch.max.wait.ms"]).toBe(10);
  });

  it("names the model server to a served run only (the app scores through it when BENCH_MODEL_SERVER is set)", () => {
    expect(appEnv({ ...ctx, modelServer: "127.0.0.1:8081" }, "/jdk").BENCH_MODEL_SERVER).toBe("127.0.0.1:8081");
    expect(appEnv(ctx, "/jdk")).not.toHaveProperty("BENCH_MODEL_SERVER");
  });
});
