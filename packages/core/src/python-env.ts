/**
 * Pinned Python environments for the products' apps, created once into the cache and reused.
 * A venv is keyed by a hash of everything that shapes it, so changing a pin makes a new one.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";

export interface PythonEnvSpec {
  /** Interpreter that creates the venv, e.g. /usr/bin/python3.11. */
  python: string;
  /** Exact pins, e.g. "faststream[kafka]==0.7.8". */
  requirements: string[];
  /** Let the venv see Debian's python3-torch (PyPI only has the 4 GB CUDA build). */
  systemSitePackages?: boolean;
  /** Extra pip arguments (e.g. a constraint such as numpy<2 passed as a requirement instead). */
  pipArgs?: string[];
}

export interface PythonEnv {
  python: string;
  venvDir: string;
}

export async function ensurePythonEnv(spec: PythonEnvSpec, cacheDir: string, log: (line: string) => void): Promise<PythonEnv> {
  const key = createHash("sha256").update(JSON.stringify(spec)).digest("hex").slice(0, 12);
  const venvDir = join(cacheDir, `venv-${key}`);
  const python = join(venvDir, "bin", "python");
  const marker = join(venvDir, ".complete");
  if (existsSync(marker)) return { python, venvDir };

  if (!existsSync(spec.python)) throw new Error(`${spec.python} not found (run scripts/setup.sh, which installs it)`);
  rmSync(venvDir, { recursive: true, force: true });
  mkdirSync(cacheDir, { recursive: true });
  log(`creating Python environment ${venvDir}`);
  const venvArgs = ["-m", "venv", ...(spec.systemSitePackages ? ["--system-site-packages"] : []), venvDir];
  await execa(spec.python, venvArgs);
  log(`pip install ${spec.requirements.join(" ")}`);
  const pip = await execa(python, ["-m", "pip", "install", "--disable-pip-version-check", "--no-input", ...(spec.pipArgs ?? []), ...spec.requirements], {
    reject: false,
    all: true,
  });
  if (pip.exitCode !== 0) {
    throw new Error(`pip install failed in ${venvDir}:\n${String(pip.all ?? "").split("\n").slice(-25).join("\n")}`);
  }
  writeFileSync(marker, JSON.stringify(spec, null, 2));
  return { python, venvDir };
}

/** A Python script printing the interpreter's and the distributions' versions as JSON ("missing" when absent). */
export function pythonVersionsScript(distributions: Record<string, string>): string {
  return [
    "import importlib.metadata as md, json, platform, sys",
    `dists = ${JSON.stringify(distributions)}`,
    "out = {'python': platform.python_version() + ('t' if not getattr(sys, '_is_gil_enabled', lambda: True)() else '')}",
    "for label, dist in dists.items():",
    "    try: out[label] = md.version(dist)",
    "    except md.PackageNotFoundError: out[label] = 'missing'",
    "print(json.dumps(out))",
  ].join("\n");
}

/** Versions of the interpreter and of installed distributions, as the page shows them. */
export async function pythonVersions(python: string, distributions: Record<string, string>, env?: Record<string, string>): Promise<Record<string, string>> {
  const { stdout } = await execa(python, ["-c", pythonVersionsScript(distributions)], { env });
  return JSON.parse(stdout) as Record<string, string>;
}

/** "1.13.1+dfsg-4" -> "1.13.1": the upstream part of a Debian package version. */
export function upstreamVersion(debianVersion: string): string | undefined {
  return /^(?:\d+:)?(\d+(?:\.\d+)*)/.exec(debianVersion.trim())?.[1];
}

/**
 * The upstream version of an installed Debian package, undefined when dpkg does not know it.
 * Debian builds python3-torch 1.13.1 from a tree that calls itself 1.13.0a0+gitunknown, so the
 * page takes torch's version from the package instead.
 */
export async function debianPackageVersion(pkg: string): Promise<string | undefined> {
  const result = await execa("dpkg-query", ["-W", "-f", "${Version}", pkg], { reject: false });
  return result.exitCode === 0 && result.stdout !== "" ? upstreamVersion(result.stdout) : undefined;
}

/**
 * The librdkafka inside a venv's confluent-kafka wheel (which may differ from the wheel's own
 * version): the C client the shared settings' librdkafka names are for, shown on the page.
 */
export async function librdkafkaVersion(python: string): Promise<string> {
  const result = await execa(python, ["-c", "import confluent_kafka; print(confluent_kafka.libversion()[0])"]);
  return result.stdout.trim();
}
