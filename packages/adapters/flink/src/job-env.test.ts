import { KAFKA_SETTINGS } from "@bench/core";
import { jobEnv } from "./job-env.ts";

const ctx = {
  bootstrap: "127.0.0.1:19092",
  kafka: KAFKA_SETTINGS,
  inputTopic: "in",
  outputTopic: "out",
  groupId: "g",
  parallelism: 3,
  runDir: "/runs/r1",
  stateDir: "/runs/r1/state",
  repoRoot: "/repo",
  modelsDir: "/repo/models",
  cacheDir: "/cache/flink",
};

describe("jobEnv", () => {
  it("passes the bench settings and keeps Flink's files in the run's folder", () => {
    const env = jobEnv(ctx, "/cache/flink/jars/k.jar", "/jdk");
    expect(env).toMatchObject({
      BENCH_BOOTSTRAP: "127.0.0.1:19092",
      BENCH_INPUT_TOPIC: "in",
      BENCH_OUTPUT_TOPIC: "out",
      BENCH_GROUP_ID: "g",
      BENCH_PARALLELISM: "3",
      BENCH_MODELS_DIR: "/repo/models",
      BENCH_FLINK_JAR: "/cache/flink/jars/k.jar",
      JAVA_HOME: "/jdk",
    });
    for (const key of ["BENCH_CHECKPOINT_DIR", "BENCH_TMP_DIR", "FLINK_LOG_DIR"]) expect(env[key]?.startsWith("/runs/r1")).toBe(true);
  });
});
