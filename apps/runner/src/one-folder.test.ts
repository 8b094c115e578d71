/**
 * "A product is one folder": a throwaway adapter folder, and nothing else edited, is found by
 * discovery, doctored (its own prerequisite in the table and its verdict), listed for CI in
 * `--list --json`, and so in the workflow's matrix, which is that list. Its apt package reaches
 * setup's list, its environment variable reaches turbo's tasks and its declared runtime mix
 * reaches the yardstick from the folder alone: the
 * repo's root files are used as they are. (pnpm-lock.yaml is the one file outside the folder
 * that adding a product changes: `pnpm install` writes it.)
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { repoRoot } from "@bench/core";
import { doctorCommand } from "./doctor/command.ts";
import { repoTurbo, turboTaskEnv } from "./doctor/turbo-dry-run.ts";
import { listCommand } from "./list.ts";
import { discoverIn } from "./run/discover.ts";
import { readDeclaredMixes } from "./yardstick/declared-mix.ts";
import { declaredMix } from "./yardstick/mix.ts";

const INDEX_TS = `
import type { Product } from "@bench/core";

export const products: Product[] = [
  {
    id: "throwaway",
    row: { delivery: "none", processing: "none", engine: "a test's stand-in", scaling: "none", decode: "none" },
    prepare: async () => ({ ok: false, reason: "a throwaway adapter never runs" }),
    start: async () => {
      throw new Error("never started");
    },
    prerequisites: async () => [{ name: "throwaway tool", have: "none", ok: false, reason: "no throwaway tool on PATH", fix: "install the throwaway tool" }],
    ci: { rate: 1234 },
  },
];
`;

const THROWAWAY_PACKAGE = {
  name: "@bench/adapter-throwaway",
  type: "module",
  exports: { ".": "./src/index.ts" },
  scripts: { test: "true", "test:integration": "true" },
  bench: { apt: ["throwaway-tool"], env: ["THROWAWAY_HOME"], mix: { throwaway: { cpython: 0.9, native: 0.1 } } },
};

/** The turbo.json an adapter that reads its own environment variables carries (the adding guide shows it). */
const THROWAWAY_TURBO = {
  extends: ["//"],
  tasks: { test: { env: ["$TURBO_EXTENDS$", "THROWAWAY_HOME"] }, "test:integration": { env: ["$TURBO_EXTENDS$", "THROWAWAY_HOME"] } },
};

describe("adding a product is adding a folder", () => {
  /** A workspace of the repo's own root files, unedited, and the throwaway folder. */
  let workspace: string;
  let dir: string;
  beforeAll(() => {
    workspace = mkdtempSync(join(tmpdir(), "one-folder-"));
    for (const file of ["package.json", "pnpm-workspace.yaml", "turbo.json"]) copyFileSync(join(repoRoot(), file), join(workspace, file));
    dir = join(workspace, "packages", "adapters");
    const folder = join(dir, "throwaway");
    mkdirSync(join(folder, "src"), { recursive: true });
    writeFileSync(join(folder, "package.json"), JSON.stringify(THROWAWAY_PACKAGE));
    writeFileSync(join(folder, "turbo.json"), JSON.stringify(THROWAWAY_TURBO));
    writeFileSync(join(folder, "src", "index.ts"), INDEX_TS);
    // Not an adapter: a folder without package.json is passed over.
    mkdirSync(join(dir, "notes"));
  });
  afterAll(() => rmSync(workspace, { recursive: true, force: true }));

  it("is discovered with the package it came from", async () => {
    const found = await discoverIn(dir, (line) => {
      throw new Error(line);
    });
    expect(found.map((d) => [d.product.id, d.packageName])).toEqual([["throwaway", "@bench/adapter-throwaway"]]);
  });

  it("is doctored: its prerequisite is a row of the table and its verdict gives the reason and fix", async () => {
    let printed = "";
    expect(await doctorCommand(dir, (text) => (printed += text))).toBe(0);
    expect(printed).toMatch(/^throwaway tool\s+none\s+MISSING\s+install the throwaway tool$/m);
    expect(printed).toMatch(/^throwaway\s+.*no throwaway tool on PATH — fix: install the throwaway tool$/m);
    expect(printed).toMatch(/^throwaway\s+THROWAWAY_HOME\s+(unset|set: .+)$/m);
  }, 30_000);

  it("has its apt package installed by setup, which reads the folder", () => {
    const printed = execFileSync(process.execPath, [join(repoRoot(), "scripts", "declared-apt.mjs"), dir], { encoding: "utf8" });
    expect(printed).toBe("throwaway-tool\n");
    // setup.sh installs what that script prints, beside the bench's own packages.
    expect(readFileSync(join(repoRoot(), "scripts", "setup.sh"), "utf8")).toMatch(/^declared_apt=\$\(node scripts\/declared-apt\.mjs\)$/m);
  });

  it("has its environment variable handed to its tests by turbo, from its own turbo.json", () => {
    const env = turboTaskEnv(repoTurbo(repoRoot()), workspace, ["test", "test:integration"]);
    expect(env.get("@bench/adapter-throwaway#test")).toContain("THROWAWAY_HOME");
    expect(env.get("@bench/adapter-throwaway#test:integration")).toContain("THROWAWAY_HOME");
    // The root's own variables still reach it: the folder adds, it does not replace.
    expect(env.get("@bench/adapter-throwaway#test")).toContain("BENCH_*");
  });

  it("has its declared runtime mix read from its own package.json, for runs that were not profiled", () => {
    const mixes = readDeclaredMixes(dir);
    expect(Object.keys(mixes)).toEqual(["throwaway"]);
    expect(declaredMix({ product: "throwaway" }, mixes)).toEqual({ shares: { cpython: 0.9, native: 0.1 }, source: "declared" });
    // A second row of the adapter (its family) is read by the family's mix, as node-passthrough's kind would be.
    expect(declaredMix({ product: "throwaway-variant", family: "throwaway" }, mixes)?.shares).toEqual({ cpython: 0.9, native: 0.1 });
  });

  it("is listed for CI with its package and its CI rate", async () => {
    const printed: string[] = [];
    expect(await listCommand(true, dir, (line) => printed.push(line))).toBe(0);
    expect(printed).toHaveLength(1);
    expect(JSON.parse(printed[0]!)).toEqual([{ id: "throwaway", package: "@bench/adapter-throwaway", ciRate: 1234 }]);
  });

  it("is in the CI matrix, because the workflow's matrix is that list", () => {
    const workflow = readFileSync(join(repoRoot(), ".github", "workflows", "bench.yml"), "utf8");
    expect(workflow).toMatch(/^\s+matrix=\$\(pnpm --silent --filter runner bench --list --json\)$/m);
    expect(workflow).toContain('echo "matrix=$matrix" >> "$GITHUB_OUTPUT"');
    expect(workflow).toMatch(/^\s+matrix: \$\{\{ steps\.list\.outputs\.matrix \}\}$/m);
    expect(workflow).toMatch(/^\s+include: \$\{\{ fromJSON\(needs\.products\.outputs\.matrix\) \}\}$/m);
    // The jobs read the list's own keys.
    for (const key of ["matrix.id", "matrix.package", "matrix.ciRate"]) expect(workflow).toContain(`\${{ ${key} }}`);
  });

  it("fails the CI listing when an adapter folder does not load, rather than dropping its job", async () => {
    const broken = mkdtempSync(join(tmpdir(), "adapters-broken-"));
    try {
      mkdirSync(join(broken, "bad", "src"), { recursive: true });
      writeFileSync(join(broken, "bad", "package.json"), JSON.stringify({ name: "@bench/adapter-bad", type: "module", exports: { ".": "./src/index.ts" } }));
      writeFileSync(join(broken, "bad", "src", "index.ts"), "export const nothing = 1;\n");
      const printed: string[] = [];
      const warned: string[] = [];
      expect(await listCommand(true, broken, (line) => printed.push(line), (line) => warned.push(line))).toBe(1);
      expect(warned).toEqual(["bench: adapter @bench/adapter-bad left out: its entry does not export `products`"]);
      expect(printed).toEqual(["[]"]);
    } finally {
      rmSync(broken, { recursive: true, force: true });
    }
  });
});
