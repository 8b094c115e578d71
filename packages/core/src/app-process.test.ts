import { benchAppEnv } from "./app-process.ts";
import { KAFKA_SETTINGS } from "./kafka-settings.ts";

describe("benchAppEnv", () => {
  it("passes the run's settings as the BENCH_* variables the app reads", () => {
    const env = benchAppEnv({
      bootstrap: "127.0.0.1:19092",
      inputTopic: "in",
      outputTopic: "out",
      groupId: "g",
      parallelism: 2,
      modelsDir: "/repo/models",
      kafka: KAFKA_SETTINGS,
    });
    expect(env).toEqual({
      BENCH_BOOTSTRAP: "127.0.0.1:19092",
      BENCH_INPUT_TOPIC: "in",
      BENCH_OUTPUT_TOPIC: "out",
      BENCH_GROUP_ID: "g",
      BENCH_PARALLELISM: "2",
      BENCH_MODELS_DIR: "/repo/models",
      PYTHONUNBUFFERED: "1",
      BENCH_GUARANTEE: "at-least-once",
      BENCH_KAFKA_CONSUMER: JSON.stringify(KAFKA_SETTINGS.consumer),
      BENCH_KAFKA_PRODUCER: JSON.stringify(KAFKA_SETTINGS.producer),
    });
  });

  it("gives an exactly-once run the transactional id every start of the run shares", () => {
    const run = { bootstrap: "b", inputTopic: "in", outputTopic: "out", parallelism: 1, modelsDir: "/m", kafka: KAFKA_SETTINGS };
    const first = benchAppEnv({ ...run, groupId: "bench.rust.1", guarantee: "exactly-once" });
    const restarted = benchAppEnv({ ...run, groupId: "bench.rust.1", guarantee: "exactly-once" });
    expect(first.BENCH_GUARANTEE).toBe("exactly-once");
    expect(first.BENCH_TRANSACTIONAL_ID).toBe("bench.rust.1.tx");
    expect(restarted.BENCH_TRANSACTIONAL_ID).toBe(first.BENCH_TRANSACTIONAL_ID);
    expect(benchAppEnv({ ...run, groupId: "bench.rust.2", guarantee: "exactly-once" }).BENCH_TRANSACTIONAL_ID).not.toBe(first.BENCH_TRANSACTIONAL_ID);
  });

  it("gives a served run the model server's address, and an embedded one none", () => {
    const run = { bootstrap: "b", inputTopic: "in", outputTopic: "out", groupId: "g", parallelism: 1, modelsDir: "/m", kafka: KAFKA_SETTINGS };
    expect(benchAppEnv({ ...run, modelServer: "127.0.0.1:8081" }).BENCH_MODEL_SERVER).toBe("127.0.0.1:8081");
    expect(benchAppEnv(run)).not.toHaveProperty("BENCH_MODEL_SERVER");
  });
});
