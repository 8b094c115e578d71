import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pythonTorchChecks } from "./python-torch-checks.ts";

/** A stand-in interpreter that answers --version and the two imports as a given machine would. */
function fakePython(dir: string, { venv, torch }: { venv: boolean; torch?: string }): string {
  const path = join(dir, `python-${venv}-${torch ?? "none"}`);
  writeFileSync(
    path,
    [
      "#!/bin/sh",
      'if [ "$1" = --version ]; then echo "Python 3.11.2"; exit 0; fi',
      'case "$2" in',
      `  *ensurepip*) exit ${venv ? 0 : 1} ;;`,
      `  *torch*) ${torch ? `echo "some warning"; echo "${torch}"; exit 0` : "exit 1"} ;;`,
      "esac",
      "exit 2",
    ].join("\n"),
  );
  chmodSync(path, 0o755);
  return path;
}

describe("pythonTorchChecks", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "python-torch-checks-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reports the interpreter, its venv module and torch's version when all are there", async () => {
    expect(await pythonTorchChecks(fakePython(dir, { venv: true, torch: "1.13.0a0" }))).toEqual([
      { name: "Python 3.11", have: "3.11.2", ok: true },
      { name: "python3.11 venv", have: "yes", ok: true },
      { name: "torch (python3.11)", have: "1.13.0a0", ok: true },
    ]);
  });

  it("names the Debian package for a missing venv module or torch", async () => {
    const python = fakePython(dir, { venv: false });
    const checks = await pythonTorchChecks(python);
    expect(checks.filter((c) => !c.ok)).toEqual([
      { name: "python3.11 venv", have: "no", ok: false, reason: `${python} cannot make a venv with pip`, fix: "apt-get install python3.11-venv" },
      {
        name: "torch (python3.11)",
        have: "none",
        ok: false,
        reason: `torch is not importable from ${python} (PyPI's Linux torch is the 4 GB CUDA build)`,
        fix: "apt-get install python3-torch",
      },
    ]);
  });

  it("without the interpreter, says only that (the rest cannot be asked)", async () => {
    const missing = join(dir, "no-such-python");
    expect(await pythonTorchChecks(missing)).toEqual([
      { name: "Python 3.11", have: "none", ok: false, reason: `no ${missing} (Debian's, which sees Debian's torch)`, fix: "apt-get install python3.11" },
    ]);
  });
});
