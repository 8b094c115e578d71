/**
 * The Debian sid root both Turbine rows run in, built once into the cache:
 *   1. debootstrap --variant=minbase (python3.14, python3.14-venv, ca-certificates), then apt-get update
 *   2. the host's resolv.conf, CA bundle(s) and pip config copied in (every prepare: cheap, current)
 *   3. a venv with --system-site-packages, and a check that the pinned turbine-fast has a wheel
 *      this interpreter can install, BEFORE the heavy apt step, so a row that cannot run here
 *      says so in about a minute
 *   4. apt-get install of Debian's torch / pyarrow / onnxruntime (pins.ts APT_PACKAGES)
 *   5. pip install turbine-fast==pin (its requirements are already satisfied by Debian's)
 * Each step leaves a marker; an interrupted debootstrap is redone from scratch.
 */
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { execa } from "execa";
import { rootInvocation, type Bind } from "./chroot.ts";
import { hostFilesForRoot, pipEnvironment } from "./host-files.ts";
import { hostDebianMirror } from "./mirror.ts";
import { APT_PACKAGES, BASE_PACKAGES, DEBIAN_SUITE, ROOT_PYTHON, ROOT_VENV, TURBINE_VERSION } from "./pins.ts";
import { noWheelReason } from "./preparation.ts";

export type RootResult = { ok: true; root: string } | { ok: false; reason: string };

export interface CommandResult {
  exitCode: number;
  output: string;
}

/** Runs argv inside the root; output is stdout+stderr interleaved. */
export async function runInRoot(root: string, argv: string[], env: Record<string, string> = {}, binds: Bind[] = []): Promise<CommandResult> {
  const inv = rootInvocation(root, argv, binds);
  const result = await execa(inv.command, inv.args, { reject: false, all: true, env, stdin: "ignore" });
  return { exitCode: result.exitCode ?? -1, output: String(result.all ?? "") };
}

function tail(text: string, lines = 20): string {
  return text.trim().split("\n").slice(-lines).join("\n");
}

export function rootDir(cacheDir: string): string {
  const key = createHash("sha256").update(JSON.stringify({ DEBIAN_SUITE, BASE_PACKAGES })).digest("hex").slice(0, 12);
  return join(cacheDir, `root-${DEBIAN_SUITE}-${key}`);
}

async function missingTools(): Promise<string[]> {
  const missing: string[] = [];
  for (const tool of ["/usr/sbin/debootstrap", "unshare", "chroot", "mount"]) {
    const found = tool.startsWith("/") ? existsSync(tool) : (await execa("sh", ["-c", `command -v ${tool}`], { reject: false })).exitCode === 0;
    if (!found) missing.push(tool);
  }
  return missing;
}

async function debootstrap(root: string, log: (line: string) => void): Promise<string | undefined> {
  const mirror = hostDebianMirror();
  if (!mirror) return "no Debian mirror in the host's apt sources (/etc/apt/sources.list.d/*.sources, *.list, /etc/apt/sources.list)";
  const tmp = `${root}.partial`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(dirname(root), { recursive: true });
  log(`debootstrap ${DEBIAN_SUITE} into ${root} (first time only, about a minute)`);
  const started = Date.now();
  const args = ["--variant=minbase", `--include=${BASE_PACKAGES.join(",")}`, DEBIAN_SUITE, tmp, mirror];
  const result = await execa("/usr/sbin/debootstrap", args, { reject: false, all: true });
  if (result.exitCode !== 0) {
    rmSync(tmp, { recursive: true, force: true });
    return `debootstrap ${args.join(" ")} failed (exit ${result.exitCode}):\n${tail(String(result.all ?? ""))}`;
  }
  // debootstrap writes the mirror into the root's sources.list: the root keeps using it.
  renameSync(tmp, root);
  log(`debootstrap done in ${Math.round((Date.now() - started) / 1000)} s`);
  return undefined;
}

function copyHostFiles(root: string, pipConfigList: string): void {
  for (const file of hostFilesForRoot({ env: process.env, home: homedir(), pipConfigList })) {
    if (!existsSync(file)) continue;
    const target = join(root, file);
    mkdirSync(dirname(target), { recursive: true });
    rmSync(target, { force: true }); // may be a dangling symlink in the root (resolv.conf)
    copyFileSync(file, target);
  }
}

async function hostPipConfigList(): Promise<string> {
  const result = await execa("python3", ["-m", "pip", "config", "list"], { reject: false });
  return result.exitCode === 0 ? result.stdout : "";
}

/** Builds (or finds) the root; never throws for an environment that cannot have it. */
export async function ensureRoot(cacheDir: string, log: (line: string) => void): Promise<RootResult> {
  if (process.getuid?.() !== 0) return { ok: false, reason: "building and entering the Debian sid root (debootstrap, unshare --mount, chroot) needs root" };
  const missing = await missingTools();
  if (missing.length > 0) return { ok: false, reason: `missing on the host: ${missing.join(", ")} (apt-get install debootstrap util-linux coreutils)` };

  const root = rootDir(cacheDir);
  const baseMarker = join(root, ".bench-base-complete");
  if (!existsSync(baseMarker)) {
    rmSync(root, { recursive: true, force: true });
    const failure = await debootstrap(root, log);
    if (failure) return { ok: false, reason: failure };
    copyHostFiles(root, await hostPipConfigList());
    // The host's mirror may be a frozen snapshot whose sid Release is past its Valid-Until by
    // this machine's clock (apt-get update then fails with "Release file ... is expired");
    // debootstrap does not check it, apt does. The signatures are still checked.
    writeFileSync(join(root, "etc/apt/apt.conf.d/99bench-frozen-mirror"), 'Acquire::Check-Valid-Until "false";\n');
    const update = await runInRoot(root, ["apt-get", "update", "-q"]);
    if (update.exitCode !== 0) return { ok: false, reason: `apt-get update in the sid root failed:\n${tail(update.output)}` };
    writeFileSync(baseMarker, JSON.stringify({ DEBIAN_SUITE, BASE_PACKAGES }));
  }
  copyHostFiles(root, await hostPipConfigList());
  const pipEnv = pipEnvironment(process.env);

  const venvPython = join(ROOT_VENV, "bin", "python");
  if (!existsSync(join(root, venvPython))) {
    const venv = await runInRoot(root, [ROOT_PYTHON, "-m", "venv", "--system-site-packages", ROOT_VENV]);
    if (venv.exitCode !== 0) return { ok: false, reason: `${ROOT_PYTHON} -m venv failed in the root:\n${tail(venv.output)}` };
  }

  const turbineMarker = join(root, ROOT_VENV, `.bench-turbine-fast-${TURBINE_VERSION}`);
  if (!existsSync(turbineMarker)) {
    const wheel = await runInRoot(
      root,
      [venvPython, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "--disable-pip-version-check", "-d", "/tmp/turbine-wheel-check", `turbine-fast==${TURBINE_VERSION}`],
      pipEnv,
    );
    if (wheel.exitCode !== 0) return { ok: false, reason: await explainNoWheel(root, venvPython, wheel.output, pipEnv) };

    const aptMarker = join(root, `.bench-apt-${createHash("sha256").update(APT_PACKAGES.join(",")).digest("hex").slice(0, 12)}`);
    if (!existsSync(aptMarker)) {
      log(`apt-get install ${APT_PACKAGES.join(" ")} in the sid root (first time only)`);
      const apt = await runInRoot(root, ["apt-get", "install", "-y", "-q", "--no-install-recommends", ...APT_PACKAGES], { DEBIAN_FRONTEND: "noninteractive" });
      if (apt.exitCode !== 0) return { ok: false, reason: `apt-get install in the sid root failed:\n${tail(apt.output)}` };
      await runInRoot(root, ["apt-get", "clean"]);
      writeFileSync(aptMarker, APT_PACKAGES.join("\n"));
    }

    log(`pip install turbine-fast==${TURBINE_VERSION} in the root's venv`);
    const pip = await runInRoot(
      root,
      [venvPython, "-m", "pip", "install", "--no-input", "--disable-pip-version-check", "--only-binary=:all:", `turbine-fast==${TURBINE_VERSION}`],
      pipEnv,
    );
    if (pip.exitCode !== 0) return { ok: false, reason: `pip install turbine-fast==${TURBINE_VERSION} failed in the root:\n${tail(pip.output)}` };
    writeFileSync(turbineMarker, TURBINE_VERSION);
  }
  return { ok: true, root };
}

/** Gathers the facts behind "no wheel": pip's own words, the interpreter, what PyPI does offer. */
async function explainNoWheel(root: string, venvPython: string, pipOutput: string, pipEnv: Record<string, string>): Promise<string> {
  const interp = await runInRoot(root, [
    venvPython,
    "-c",
    "import platform, sys; print(platform.python_version(), 'GIL' if getattr(sys, '_is_gil_enabled', lambda: True)() else 'free-threaded', sys.implementation.cache_tag)",
  ]);
  const offered = await runInRoot(
    root,
    [venvPython, "-m", "pip", "index", "versions", "turbine-fast", "--pre", "--only-binary=:all:", "--python-version", "3.14", "--implementation", "cp", "--abi", "cp314t", "--platform", "manylinux_2_28_x86_64"],
    pipEnv,
  );
  const freeThreaded = await runInRoot(root, ["apt-cache", "pkgnames", "python3.14"]);
  const ftPackages = freeThreaded.output.split("\n").filter((p) => /nogil|3\.14t/.test(p));
  return noWheelReason({
    pin: TURBINE_VERSION,
    pipError: pipOutput.split("\n").filter((l) => l.startsWith("ERROR:")),
    interpreter: interp.exitCode === 0 ? interp.output.trim() : "unknown",
    freeThreadedVersions: /Available versions: (.*)/.exec(offered.output)?.[1]?.trim(),
    freeThreadedPackages: ftPackages,
  });
}
