/**
 * ONNX Runtime's shared library for the app's `ort` (load-dynamic): the one inside the pinned
 * onnxruntime wheel from PyPI, installed with pip (no dependencies: only the .so is used) into
 * a venv in the row's cache, the way the Python rows' environments are made.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { DEBIAN_PYTHON, ensurePythonEnv, type PythonEnvSpec } from "@bench/core";
import { ONNXRUNTIME_VERSION } from "./pins.ts";

export const ONNXRUNTIME_ENV: PythonEnvSpec = {
  python: DEBIAN_PYTHON,
  requirements: [`onnxruntime==${ONNXRUNTIME_VERSION}`],
  pipArgs: ["--no-deps", "--only-binary=:all:"],
};

/** The wheel's library inside a venv: onnxruntime/capi/libonnxruntime.so.<version>. */
export function libraryIn(venvDir: string, version = ONNXRUNTIME_VERSION): string | undefined {
  const lib = join(venvDir, "lib");
  if (!existsSync(lib)) return undefined;
  for (const python of readdirSync(lib).filter((d) => d.startsWith("python")).sort()) {
    const candidate = join(lib, python, "site-packages", "onnxruntime", "capi", `libonnxruntime.so.${version}`);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

export async function ensureOnnxRuntime(cacheDir: string, log: (line: string) => void): Promise<string> {
  const env = await ensurePythonEnv(ONNXRUNTIME_ENV, join(cacheDir, "onnxruntime"), log);
  const library = libraryIn(env.venvDir);
  if (!library) throw new Error(`no libonnxruntime.so.${ONNXRUNTIME_VERSION} in ${env.venvDir} after pip install onnxruntime==${ONNXRUNTIME_VERSION}`);
  return library;
}
