import { KAFKA_SETTINGS, transactionalIdFor } from "@bench/core";
import { appCommand } from "./app-env.ts";

it("runs the built binary with the run's settings and the wheel's ONNX Runtime library", () => {
  const ctx = {
    bootstrap: "127.0.0.1:9092",
    inputTopic: "in",
    outputTopic: "out",
    groupId: "g",
    parallelism: 1,
    modelsDir: "/repo/models",
    kafka: KAFKA_SETTINGS,
  };
  const { command, args, env } = appCommand(ctx, { binary: "/cache/rust/app-0123/rust-row", onnxruntime: "/cache/rust/ort/libonnxruntime.so.1.31.1" });
  expect([command, args]).toEqual(["/cache/rust/app-0123/rust-row", []]);
  expect(env).toMatchObject(
    {
      BENCH_BOOTSTRAP: "127.0.0.1:9092",
      BENCH_INPUT_TOPIC: "in",
      BENCH_OUTPUT_TOPIC: "out",
      BENCH_GROUP_ID: "g",
      BENCH_MODELS_DIR: "/repo/models",
      BENCH_ONNXRUNTIME: "/cache/rust/ort/libonnxruntime.so.1.31.1",
    },
  );
  expect(JSON.parse(env.BENCH_KAFKA_CONSUMER as string)).toEqual(KAFKA_SETTINGS.consumer);
  expect(JSON.parse(env.BENCH_KAFKA_PRODUCER as string)).toEqual(KAFKA_SETTINGS.producer);
});

it("hands the app the run's guarantee: at-least-once by default, exactly-once with the run's transactional id", () => {
  const ctx = { bootstrap: "b:9092", inputTopic: "in", outputTopic: "out", groupId: "g", parallelism: 1, modelsDir: "/m", kafka: KAFKA_SETTINGS };
  const built = { binary: "/bin/rust-row", onnxruntime: "/lib/ort.so" };
  const atLeastOnce = appCommand(ctx, built).env;
  expect(atLeastOnce.BENCH_GUARANTEE).toBe("at-least-once");
  expect(atLeastOnce.BENCH_TRANSACTIONAL_ID).toBeUndefined();
  const exactlyOnce = appCommand({ ...ctx, guarantee: "exactly-once" }, built).env;
  expect(exactlyOnce).toMatchObject({ BENCH_GUARANTEE: "exactly-once", BENCH_TRANSACTIONAL_ID: transactionalIdFor("g") });
});
