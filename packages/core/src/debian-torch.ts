/**
 * The environment the Python 3.11 rows share, in one place: Debian 12's python3.11 with its
 * python3-torch (CPU, 1.13.1; PyPI's Linux torch is the 4 GB CUDA build) seen through
 * --system-site-packages, a venv of exact pins on top, and the check that the venv loads the
 * frozen model and reproduces the card's probes before a row is called ready.
 */
import { execa } from "execa";
import type { Prerequisite } from "./adapter.ts";
import { sharedWhileRunning, unmetReason } from "./prerequisites.ts";
import { debianPackageVersion, ensurePythonEnv, pythonVersions, type PythonEnvSpec } from "./python-env.ts";
import { pythonTorchChecks } from "./python-torch-checks.ts";

export const DEBIAN_PYTHON = "/usr/bin/python3.11";
/** Debian 12's own numpy, so pip never replaces the numpy Debian's torch was built against. */
export const DEBIAN_NUMPY = "numpy==1.24.2";

/**
 * What every Python 3.11 row needs from the machine (Debian's python3.11, its venv module, its
 * torch): the rows' `prerequisites()`, and the first thing prepareDebianTorchEnv asks.
 */
export const debianTorchPrerequisites: () => Promise<Prerequisite[]> = sharedWhileRunning(() => pythonTorchChecks(DEBIAN_PYTHON));

/** A venv over Debian's torch with these exact pins (every transitive dependency, please). */
export function debianTorchEnv(requirements: readonly string[]): PythonEnvSpec {
  return { python: DEBIAN_PYTHON, systemSitePackages: true, requirements: [...requirements, DEBIAN_NUMPY] };
}

export interface DebianTorchRow {
  /** Exact pins for the venv (numpy is added). */
  requirements: readonly string[];
  /** Page label -> distribution, besides python and torch. */
  versions: Record<string, string>;
  /** Modules the app imports, checked with the model before the row is ready. */
  imports: readonly string[];
}

export type DebianTorchEnv = { ok: true; python: string; versions: Record<string, string> } | { ok: false; reason: string };

/**
 * Builds (once, cached) and checks a row's venv: the interpreter is there, pip succeeds, the
 * app's modules import, risk_model loads the frozen model through torch and reproduces the
 * card's probes. Versions as the page shows them: torch's from Debian's package, because
 * Debian's build calls itself 1.13.0a0+gitunknown.
 */
export async function prepareDebianTorchEnv(
  row: DebianTorchRow,
  ctx: { cacheDir: string; modelsDir: string; log(line: string): void },
): Promise<DebianTorchEnv> {
  // The doctor's own lookup, so a row the doctor passes is not refused here for another reason.
  const unmet = unmetReason(await debianTorchPrerequisites());
  if (unmet) return { ok: false, reason: unmet };
  let python: string;
  try {
    ({ python } = await ensurePythonEnv(debianTorchEnv(row.requirements), ctx.cacheDir, ctx.log));
  } catch (error) {
    return { ok: false, reason: `Python environment: ${(error as Error).message}` };
  }
  const check = await execa(python, ["-c", [...row.imports.map((m) => `import ${m}`), "import risk_model", "risk_model.load_torch_model()"].join("; ")], {
    env: { PYTHONPATH: ctx.modelsDir, BENCH_MODELS_DIR: ctx.modelsDir },
    reject: false,
    all: true,
  });
  if (check.exitCode !== 0) {
    const why = String(check.all ?? "").trim().split("\n").slice(-6).join("\n");
    return {
      ok: false,
      reason: `the venv cannot import ${[...row.imports, "torch"].join(", ")} or load the frozen model (torch comes from Debian's python3-torch: apt-get ` +
        `install python3-torch):\n${why}`,
    };
  }
  const versions = await pythonVersions(python, { ...row.versions, torch: "torch" });
  const missing = Object.keys(row.versions).filter((label) => versions[label] === "missing");
  if (missing.length > 0) return { ok: false, reason: `missing from the venv: ${missing.join(", ")}` };
  const debianTorch = await debianPackageVersion("python3-torch");
  if (debianTorch !== undefined) versions.torch = debianTorch;
  return { ok: true, python, versions };
}
