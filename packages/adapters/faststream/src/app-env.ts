import type { RunContext } from "@bench/core";

/** What the Python app reads (app/main.py): the run's broker, topics, group and models. */
export function appEnv(ctx: RunContext): Record<string, string> {
  return {
    BENCH_BOOTSTRAP: ctx.bootstrap,
    BENCH_INPUT_TOPIC: ctx.inputTopic,
    BENCH_OUTPUT_TOPIC: ctx.outputTopic,
    BENCH_GROUP_ID: ctx.groupId,
    BENCH_PARALLELISM: String(ctx.parallelism),
    BENCH_MODELS_DIR: ctx.modelsDir,
    // Lines reach the log (and BENCH_READY reaches waitForLine) as they are printed.
    PYTHONUNBUFFERED: "1",
  };
}
