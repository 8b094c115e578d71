/** How the Rust app is started: the built binary, no arguments, the run's BENCH_* settings (the guarantee among them) and ONNX Runtime's library. */
import { benchAppEnv, type RunContext } from "@bench/core";

/** What prepare() found for start(). */
export interface BuiltRow {
  binary: string;
  onnxruntime: string;
}

export function appCommand(
  ctx: Pick<RunContext, "bootstrap" | "inputTopic" | "outputTopic" | "groupId" | "parallelism" | "modelsDir" | "kafka">
    & Partial<Pick<RunContext, "guarantee">>,
  built: BuiltRow,
): { command: string; args: string[]; env: Record<string, string> } {
  return { command: built.binary, args: [], env: { ...benchAppEnv(ctx), BENCH_ONNXRUNTIME: built.onnxruntime } };
}
