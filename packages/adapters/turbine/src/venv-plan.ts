/**
 * The venv each row runs in, made from the user's free-threaded interpreter by core's
 * ensurePythonEnv (cached, keyed by everything in the spec, so a new pin or another
 * interpreter makes a new venv). No --system-site-packages: every package comes pinned from
 * the index, built for cp314t.
 */
import type { PythonEnvSpec } from "@bench/core";
import { ENV_TORCH_INDEX, NUMPY, ONNXRUNTIME, PYARROW, TORCH, TURBINE_VERSION } from "./pins.ts";
import type { Variant } from "./preparation.ts";

export function venvSpec(variant: Variant, python: string, env: Record<string, string | undefined>): PythonEnvSpec {
  const common = [`turbine-fast==${TURBINE_VERSION}`, PYARROW, NUMPY];
  if (variant === "onnx") return { python, requirements: [...common, ONNXRUNTIME], pipArgs: ["--only-binary=:all:"] };
  // The default index's Linux torch runs on a CPU but pulls the CUDA wheels too; a user who
  // names a CPU-only index gets that build, the rest still from the default index.
  const torchIndex = env[ENV_TORCH_INDEX]?.trim();
  return {
    python,
    requirements: [...common, TORCH],
    pipArgs: ["--only-binary=:all:", ...(torchIndex ? ["--extra-index-url", torchIndex] : [])],
  };
}
