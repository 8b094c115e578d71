import { appEnv } from "./app-env.ts";

describe("appEnv", () => {
  it("passes the run's settings as the BENCH_* variables the app reads", () => {
    const env = appEnv({
      bootstrap: "127.0.0.1:19092",
      inputTopic: "in",
      outputTopic: "out",
      groupId: "g",
      parallelism: 2,
      runDir: "/tmp/run",
      repoRoot: "/repo",
      modelsDir: "/repo/models",
      cacheDir: "/cache",
      log: () => undefined,
    });
    expect(env).toEqual({
      BENCH_BOOTSTRAP: "127.0.0.1:19092",
      BENCH_INPUT_TOPIC: "in",
      BENCH_OUTPUT_TOPIC: "out",
      BENCH_GROUP_ID: "g",
      BENCH_PARALLELISM: "2",
      BENCH_MODELS_DIR: "/repo/models",
      PYTHONUNBUFFERED: "1",
    });
  });
});
