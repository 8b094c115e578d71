import { KAFKA_SETTINGS } from "@bench/core";
import { appEnv, turbineGroup } from "./app-env.ts";

const ctx = {
  bootstrap: "127.0.0.1:19092",
  kafka: KAFKA_SETTINGS,
  inputTopic: "in",
  outputTopic: "out",
  groupId: "g",
  parallelism: 2,
  guarantee: "at-least-once" as const,
  runDir: "/tmp/run",
  stateDir: "/tmp/run/state",
  repoRoot: "/repo",
  modelsDir: "/repo/models",
  cacheDir: "/cache",
  log: () => undefined,
};

describe("appEnv", () => {
  it("passes the run's settings with host paths, and no GIL switch (0.3.0a1 has none)", () => {
    expect(appEnv(ctx, 18400)).toEqual({
      BENCH_BOOTSTRAP: "127.0.0.1:19092",
      BENCH_INPUT_TOPIC: "in",
      BENCH_OUTPUT_TOPIC: "out",
      BENCH_GROUP_ID: "g",
      BENCH_GUARANTEE: "at-least-once",
      BENCH_PARALLELISM: "2",
      BENCH_MODELS_DIR: "/repo/models",
      BENCH_TURBINE_STATE_DIR: "/tmp/run/turbine-state",
      BENCH_TURBINE_API_PORT: "18400",
      PYTHONUNBUFFERED: "1",
      PYTHONDONTWRITEBYTECODE: "1",
      // Passed like to every app; Turbine's Rust core hard-codes its own (a deviation of the rows).
      BENCH_KAFKA_CONSUMER: JSON.stringify(KAFKA_SETTINGS.consumer),
      BENCH_KAFKA_PRODUCER: JSON.stringify(KAFKA_SETTINGS.producer),
    });
  });
});

describe("turbineGroup", () => {
  it("is the group Turbine derives from app_id, topic and subscription name", () => {
    expect(turbineGroup(ctx)).toBe("turbine-g-in-score");
  });
});
