/**
 * The model alone's Python: the rows' own environment (Debian's python3.11 and python3-torch
 * under a venv of exact pins, core's debian-torch.ts) with ONNX Runtime from PyPI, the version
 * whose library the native row loads. Built once, cached, and checked like a row's: the venv
 * imports onnxruntime and loads the frozen model before anything is timed.
 */
import { ONNXRUNTIME_WHEEL_VERSION, prepareDebianTorchEnv, type DebianTorchRow } from "@bench/core";
import { join } from "node:path";
import type { ModelAloneEnv } from "./measure.ts";

export const MODEL_ALONE_ENV: DebianTorchRow = {
  // onnxruntime's own dependencies, pinned (numpy is Debian's, added by debianTorchEnv).
  requirements: [`onnxruntime==${ONNXRUNTIME_WHEEL_VERSION}`, "flatbuffers==25.9.23", "packaging==26.4", "protobuf==7.36.2"],
  versions: { onnxruntime: "onnxruntime" },
  imports: ["onnxruntime"],
};

export type PreparedModelAlone = { ok: true; env: ModelAloneEnv; versions: Record<string, string> } | { ok: false; reason: string };

export async function prepareModelAlone(ctx: { cacheRoot: string; modelsDir: string; log(line: string): void }): Promise<PreparedModelAlone> {
  const prepared = await prepareDebianTorchEnv(MODEL_ALONE_ENV, { cacheDir: join(ctx.cacheRoot, "model-alone"), modelsDir: ctx.modelsDir, log: ctx.log });
  if (!prepared.ok) return prepared;
  return { ok: true, env: { python: prepared.python, modelsDir: ctx.modelsDir }, versions: prepared.versions };
}
