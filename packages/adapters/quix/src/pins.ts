/**
 * The app's pinned Python environment: Debian 12's python3.11 with its python3-torch (PyPI
 * only has the 4 GB CUDA build), quixstreams from PyPI on top.
 */
import { execa } from "execa";
import { debianPackageVersion, ensurePythonEnv, pythonVersions, type PythonEnv } from "@bench/core";

export const QUIXSTREAMS_VERSION = "3.28.1";

export const PYTHON_ENV = {
  python: "/usr/bin/python3.11",
  systemSitePackages: true,
  // numpy pinned to Debian's so pip never replaces the numpy torch was built against.
  requirements: [`quixstreams==${QUIXSTREAMS_VERSION}`, "numpy==1.24.2"],
};

export function quixPythonEnv(cacheDir: string, log: (line: string) => void): Promise<PythonEnv> {
  return ensurePythonEnv(PYTHON_ENV, cacheDir, log);
}

export async function quixVersions(python: string): Promise<Record<string, string>> {
  const versions = await pythonVersions(python, {
    quix: "quixstreams",
    "confluent-kafka": "confluent-kafka",
    torch: "torch",
  });
  const librdkafka = await execa(python, ["-c", "import confluent_kafka; print(confluent_kafka.libversion()[0])"]);
  versions.librdkafka = librdkafka.stdout.trim();
  const debianTorch = await debianPackageVersion("python3-torch");
  if (debianTorch !== undefined) versions.torch = debianTorch;
  return versions;
}

/** Proves the venv imports the app's modules and reproduces the model card's probes. */
export async function checkModelLoads(python: string, modelsDir: string): Promise<void> {
  await execa(python, ["-c", "import quixstreams, risk_model; risk_model.load_torch_model()"], {
    env: { PYTHONPATH: modelsDir, BENCH_MODELS_DIR: modelsDir },
  });
}
