import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { repoRoot } from "@bench/core";
import { adaptersDir } from "../run/discover.ts";
import { formatDeclaredEnv, readDeclared, type Declared } from "./declared.ts";
import { repoTurbo, turboTaskEnv } from "./turbo-dry-run.ts";

const root = repoRoot();
const declared = readDeclared(adaptersDir(root));

describe("what the adapters declare", () => {
  it("every declaration is a list of names, and some adapter declares each kind", () => {
    expect(declared.length).toBeGreaterThan(0);
    expect(declared.some((d) => d.apt.length > 0)).toBe(true);
    expect(declared.some((d) => d.env.length > 0)).toBe(true);
  });

  it("turbo hands each adapter's tests the variables its package.json declares (its turbo.json agrees)", () => {
    const env = turboTaskEnv(repoTurbo(root), root, ["test", "test:integration"]);
    const notPassed = declared.flatMap((d) =>
      ["test", "test:integration"].flatMap(
        (task) => d.env.filter((name) => !(env.get(`${d.packageName}#${task}`) ?? []).includes(name)).map((name) => `${d.packageName}#${task}: ${name}`),
      ),
    );
    expect(notPassed).toEqual([]);
  });

  it("setup's list of declared apt packages is the union of the adapters' lists", () => {
    const printed = execFileSync(process.execPath, [join(root, "scripts", "declared-apt.mjs")], { encoding: "utf8" });
    expect(printed.trim().split("\n")).toEqual([...new Set(declared.flatMap((d) => d.apt))].sort());
  });
});

describe("formatDeclaredEnv", () => {
  const two: Declared[] = [
    { folder: "alpha", packageName: "@bench/adapter-alpha", apt: [], env: ["ALPHA_HOME"] },
    { folder: "beta", packageName: "@bench/adapter-beta", apt: ["beta-tool"], env: ["BETA_URL", "BETA_PIDS"] },
  ];

  it("lists every declared variable with its value, or unset", () => {
    const text = formatDeclaredEnv(two, { BETA_URL: "postgres://h:4566/dev", BETA_PIDS: "  " });
    expect(text).toMatch(/^alpha\s+ALPHA_HOME\s+unset$/m);
    expect(text).toMatch(/^beta\s+BETA_URL\s+set: postgres:\/\/h:4566\/dev$/m);
    expect(text).toMatch(/^beta\s+BETA_PIDS\s+unset$/m);
  });

  it("says nothing when no adapter reads a variable", () => {
    expect(formatDeclaredEnv([{ folder: "a", packageName: "a", apt: ["x"], env: [] }], {})).toBe("");
  });
});
