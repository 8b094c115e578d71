/**
 * What the Python 3.11 rows need from the machine, asked of the interpreter their venvs are
 * made from: that it runs, that it can make a venv with pip (Debian ships that part apart, as
 * python3.11-venv), and that it imports torch (Debian's python3-torch, seen through
 * --system-site-packages). Nothing is built: the doctor asks this in a second or two.
 */
import { execa } from "execa";
import type { Prerequisite } from "./adapter.ts";

async function output(command: string, args: string[]): Promise<string | undefined> {
  const r = await execa(command, args, { reject: false, timeout: 60_000, all: true });
  return r.exitCode === 0 ? String(r.all ?? "").trim() : undefined;
}

export async function pythonTorchChecks(python: string): Promise<Prerequisite[]> {
  const version = await output(python, ["--version"]);
  // Without the interpreter the other two cannot be asked: one row says what to install first.
  if (version === undefined) return [
    { name: "Python 3.11", have: "none", ok: false, reason: `no ${python} (Debian's, which sees Debian's torch)`, fix: "apt-get install python3.11" },
  ];
  const [venv, torch] = await Promise.all([output(python, ["-c", "import venv, ensurepip"]), output(python, ["-c", "import torch; print(torch.__version__)"])]);
  return [
    { name: "Python 3.11", have: version.replace(/^Python /, ""), ok: true },
    venv === undefined
      ? { name: "python3.11 venv", have: "no", ok: false, reason: `${python} cannot make a venv with pip`, fix: "apt-get install python3.11-venv" }
      : { name: "python3.11 venv", have: "yes", ok: true },
    torch === undefined
      ? {
        name: "torch (python3.11)",
        have: "none",
        ok: false,
        reason: `torch is not importable from ${python} (PyPI's Linux torch is the 4 GB CUDA build)`,
        fix: "apt-get install python3-torch",
      }
      : // The last line: torch may warn on stdout before its version.
        { name: "torch (python3.11)", have: torch.split("\n").pop() ?? torch, ok: true },
  ];
}
