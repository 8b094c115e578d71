/**
 * Finding the free-threaded CPython 3.14 the rows run on: TURBINE_PYTHON when set, else
 * python3.14t on PATH. No registry reachable from the bench's machines serves one, so when
 * neither is there the rows say what to install.
 */
import { isExecutableFile, sharedWhileRunning, type Prerequisite, type PrerequisiteMissing } from "@bench/core";
import { delimiter, join } from "node:path";
import { execa } from "execa";
import { ENV_PYTHON, FREE_THREADED_NAME, TURBINE_VERSION } from "./pins.ts";

/** `tried`: the interpreter looked at and refused, when there was one. */
export type Interpreter = { kind: "found"; path: string; from: string } | { kind: "none"; reason: string; tried?: string };

const WHY_FREE_THREADED = `turbine-fast ${TURBINE_VERSION} ships cp314t wheels only, and a cp314t extension does not load on the standard build`;

/** Nothing to look at: the same text for both rows. */
export const NO_INTERPRETER_REASON = `Turbine needs a free-threaded CPython 3.14 (${WHY_FREE_THREADED}): neither ${ENV_PYTHON} (path to one) is set nor ` +
  `${FREE_THREADED_NAME} is on PATH`;

/** What to install, said once for every way the lookup fails. Registries named by kind. */
export const FREE_THREADED_FIX =
  `install a free-threaded CPython 3.14 (python.org's installer with the free-threaded option, \`uv python install 3.14t\`, \`pyenv install 3.14t\`, or your ` +
    `distribution's python3.14-nogil / python3.14t package) ` +
  `and put ${FREE_THREADED_NAME} on PATH or set ${ENV_PYTHON}; the bench then builds the rows' venv from the Python package index`;

/** TURBINE_PYTHON wins; else the first python3.14t on PATH. */
export function findInterpreter(env: Record<string, string | undefined>, executable: (path: string) => boolean = isExecutableFile): Interpreter {
  const named = env[ENV_PYTHON]?.trim();
  if (named) {
    if (!named.startsWith("/")) return { kind: "none", reason: `${ENV_PYTHON}=${named} is not an absolute path`, tried: named };
    if (!executable(named)) return { kind: "none", reason: `${ENV_PYTHON}=${named} is not an executable file`, tried: named };
    return { kind: "found", path: named, from: ENV_PYTHON };
  }
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (!dir.startsWith("/")) continue;
    const candidate = join(dir, FREE_THREADED_NAME);
    if (executable(candidate)) return { kind: "found", path: candidate, from: "PATH" };
  }
  return { kind: "none", reason: NO_INTERPRETER_REASON };
}

export interface Probe {
  implementation: string;
  version: string;
  /** sysconfig's Py_GIL_DISABLED: the build is free-threaded. */
  freeThreaded: boolean;
}

/** Prints a Probe as JSON. */
export const PROBE_SCRIPT = [
  "import json, platform, sys, sysconfig",
  "print(json.dumps({'implementation': sys.implementation.name, 'version': platform.python_version(), 'freeThreaded': " +
    "bool(sysconfig.get_config_var('Py_GIL_DISABLED'))}))",
].join("\n");

/** undefined when the interpreter will do, else why not. */
export function judgeProbe(path: string, probe: Probe): string | undefined {
  const release = /^(\d+)\.(\d+)/.exec(probe.version);
  const is314 = release?.[1] === "3" && release[2] === "14";
  if (probe.implementation === "cpython" && is314 && probe.freeThreaded) return undefined;
  const what = `${probe.implementation} ${probe.version}${probe.freeThreaded ? " free-threaded" : " with the GIL"}`;
  return `${path} is ${what}, not a free-threaded CPython 3.14: ${WHY_FREE_THREADED}`;
}

/** findInterpreter, then asks the interpreter what it is. */
export async function locateFreeThreadedPython(env: Record<string, string | undefined>): Promise<Interpreter> {
  const found = findInterpreter(env);
  if (found.kind === "none") return found;
  const run = await execa(found.path, ["-c", PROBE_SCRIPT], { reject: false, all: true, timeout: 30_000 });
  if (run.exitCode !== 0) return {
    kind: "none",
    reason: `${found.path} -c <probe> failed (exit ${run.exitCode}): ${String(run.all ?? "").trim()}`,
    tried: found.path,
  };
  const why = judgeProbe(found.path, JSON.parse(String(run.stdout).trim()) as Probe);
  return why ? { kind: "none", reason: why, tried: found.path } : found;
}

export const INTERPRETER_CHECK = "free-threaded Python 3.14";

/** The lookup's answer as the doctor lists it and prepare() refuses with it. */
export function interpreterCheck(interpreter: Interpreter): Prerequisite {
  return interpreter.kind === "found" ? { name: INTERPRETER_CHECK, have: interpreter.path, ok: true } : missingInterpreter(interpreter);
}

export function missingInterpreter(none: Extract<Interpreter, { kind: "none" }>): PrerequisiteMissing {
  return { name: INTERPRETER_CHECK, have: none.tried ?? "none", ok: false, reason: none.reason, fix: FREE_THREADED_FIX };
}

/** Both rows' prerequisites: one lookup (with the probe prepare() runs) when the doctor asks them together. */
export const turbinePrerequisites = sharedWhileRunning(async (): Promise<Prerequisite[]> => [interpreterCheck(await locateFreeThreadedPython(process.env))]);
