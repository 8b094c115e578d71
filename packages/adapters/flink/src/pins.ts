/**
 * The job's pinned Python environment: Debian 12's python3.11 with its python3-torch (PyPI only
 * has the 4 GB CUDA build), apache-flink from PyPI on top. apache-flink 2.2.1 is the newest 2.2.x
 * and ships cp311 wheels (pemja too), so nothing is compiled; apache-flink-libraries carries the
 * Flink distribution's jars (about 310 MB), which is why this is the heaviest install.
 */
import { execa } from "execa";
import { debianPackageVersion, ensurePythonEnv, pythonVersions, type PythonEnv } from "@bench/core";

export const FLINK_VERSION = "2.2.1";

export const PYTHON_ENV = {
  python: "/usr/bin/python3.11",
  systemSitePackages: true,
  // numpy pinned to Debian's so pip never replaces the numpy torch was built against.
  requirements: [`apache-flink==${FLINK_VERSION}`, "numpy==1.24.2"],
};

export function flinkPythonEnv(cacheDir: string, log: (line: string) => void): Promise<PythonEnv> {
  return ensurePythonEnv(PYTHON_ENV, cacheDir, log);
}

/** Proves the venv imports PyFlink and reproduces the model card's probes. */
export async function checkModelLoads(python: string, modelsDir: string): Promise<void> {
  await execa(python, ["-c", "import pyflink.table, pandas, pyarrow, risk_model; risk_model.load_torch_model()"], {
    env: { PYTHONPATH: modelsDir, BENCH_MODELS_DIR: modelsDir },
  });
}

export async function flinkPythonVersions(python: string): Promise<Record<string, string>> {
  const versions = await pythonVersions(python, {
    flink: "apache-flink",
    torch: "torch",
    pandas: "pandas",
    pyarrow: "pyarrow",
    numpy: "numpy",
  });
  const debianTorch = await debianPackageVersion("python3-torch");
  if (debianTorch !== undefined) versions.torch = debianTorch;
  return versions;
}
