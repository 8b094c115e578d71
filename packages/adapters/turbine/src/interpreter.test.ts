import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import {
  findInterpreter,
  FREE_THREADED_FIX,
  interpreterCheck,
  judgeProbe,
  locateFreeThreadedPython,
  NO_INTERPRETER_REASON,
  PROBE_SCRIPT,
  type Probe,
} from "./interpreter.ts";

const dir = mkdtempSync(join(tmpdir(), "turbine-python-"));
function executable(path: string, body = "#!/bin/sh\n"): string {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, body);
  chmodSync(path, 0o755);
  return path;
}
const named = executable(join(dir, "opt", "bin", "python3.14t"));
const onPath = executable(join(dir, "bin2", "python3.14t"));
const plain = join(dir, "not-executable");
writeFileSync(plain, "");

describe("findInterpreter", () => {
  it("TURBINE_PYTHON wins over PATH", () => {
    expect(findInterpreter({ TURBINE_PYTHON: named, PATH: join(dir, "bin2") })).toEqual({ kind: "found", path: named, from: "TURBINE_PYTHON" });
  });
  it("a TURBINE_PYTHON that is missing, not executable or relative is refused with its value, PATH not consulted", () => {
    expect(findInterpreter({ TURBINE_PYTHON: join(dir, "missing"), PATH: join(dir, "bin2") })).toMatchObject(
      { kind: "none", reason: expect.stringContaining("missing is not an executable file") },
    );
    expect(findInterpreter({ TURBINE_PYTHON: plain })).toMatchObject(
      { kind: "none", reason: expect.stringContaining("not-executable is not an executable file") },
    );
    expect(findInterpreter({ TURBINE_PYTHON: "python3.14t" })).toMatchObject({ kind: "none", reason: expect.stringContaining("not an absolute path") });
  });
  it("else the first python3.14t on PATH, skipping relative and empty entries", () => {
    expect(
      findInterpreter({ PATH: ["", "rel", join(dir, "empty"), join(dir, "bin2"), join(dir, "opt", "bin")].join(":") }),
    ).toEqual({ kind: "found", path: onPath, from: "PATH" });
    expect(findInterpreter({ TURBINE_PYTHON: "  ", PATH: join(dir, "bin2") })).toMatchObject({ kind: "found", path: onPath });
  });
  it("neither: the reason says what to install and where to point", () => {
    expect(findInterpreter({ PATH: join(dir, "empty") })).toEqual({ kind: "none", reason: NO_INTERPRETER_REASON });
    expect(findInterpreter({})).toEqual({ kind: "none", reason: NO_INTERPRETER_REASON });
  });
});

describe("the reason and fix texts", () => {
  it("name the pin, both ways to point at an interpreter and ways to get one", () => {
    expect(NO_INTERPRETER_REASON).toContain("turbine-fast 0.3.0a1 ships cp314t wheels only");
    expect(NO_INTERPRETER_REASON).toContain("TURBINE_PYTHON");
    expect(NO_INTERPRETER_REASON).toContain("python3.14t is on PATH");
    expect(FREE_THREADED_FIX).toContain("uv python install 3.14t");
    expect(FREE_THREADED_FIX).toContain("pyenv install 3.14t");
    expect(FREE_THREADED_FIX).toContain("TURBINE_PYTHON");
  });
  it("name registries by kind, never by host", () => {
    expect(FREE_THREADED_FIX).toContain("the Python package index");
    expect(`${NO_INTERPRETER_REASON} ${FREE_THREADED_FIX}`).not.toMatch(/pypi\.org|files\.pythonhosted|download\.pytorch/i);
  });
});

describe("interpreterCheck", () => {
  it("lists a found interpreter by its path", () => {
    expect(
      interpreterCheck({ kind: "found", path: "/opt/py/bin/python3.14t", from: "PATH" }),
    ).toEqual({ name: "free-threaded Python 3.14", have: "/opt/py/bin/python3.14t", ok: true });
  });
  it("gives the lookup's reason with the install fix, and the refused path as what this machine has", () => {
    expect(interpreterCheck(findInterpreter({}))).toEqual(
      { name: "free-threaded Python 3.14", have: "none", ok: false, reason: NO_INTERPRETER_REASON, fix: FREE_THREADED_FIX },
    );
    expect(interpreterCheck(findInterpreter({ TURBINE_PYTHON: plain }))).toMatchObject(
      { have: plain, ok: false, reason: expect.stringContaining("not an executable file") },
    );
  });
});

describe("judgeProbe", () => {
  const ft: Probe = { implementation: "cpython", version: "3.14.2", freeThreaded: true };
  it("accepts a free-threaded CPython 3.14", () => {
    expect(judgeProbe("/p", ft)).toBeUndefined();
  });
  it("refuses the GIL build, another minor and another implementation, saying what it found", () => {
    expect(judgeProbe("/p", { ...ft, freeThreaded: false })).toMatch(
      /^\/p is cpython 3\.14\.2 with the GIL, not a free-threaded CPython 3\.14: turbine-fast 0\.3\.0a1 ships cp314t wheels only/,
    );
    expect(judgeProbe("/p", { ...ft, version: "3.13.5" })).toContain("cpython 3.13.5 free-threaded, not");
    expect(judgeProbe("/p", { ...ft, implementation: "pypy" })).toContain("pypy 3.14.2");
  });
});

describe("PROBE_SCRIPT on the local interpreter", () => {
  it("reads a real interpreter, and the host's GIL build is refused through it", async () => {
    const python = "/usr/bin/python3.11";
    const { stdout } = await execa(python, ["-c", PROBE_SCRIPT]);
    const probe = JSON.parse(stdout) as Probe;
    expect(probe).toEqual({ implementation: "cpython", version: expect.stringMatching(/^3\.11\./), freeThreaded: false });
    const link = join(dir, "gil", "python3.14t");
    mkdirSync(join(dir, "gil"));
    executable(link, `#!/bin/sh\nexec ${python} "$@"\n`);
    const located = await locateFreeThreadedPython({ TURBINE_PYTHON: link });
    expect(located).toMatchObject({ kind: "none", reason: expect.stringContaining(`${link} is cpython 3.11.`) });
  });
});
