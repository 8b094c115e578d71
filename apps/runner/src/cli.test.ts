import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { repoRoot } from "@bench/core";
import { execa } from "execa";
import { parseRates } from "./rates.ts";

const cli = (...args: string[]) =>
  execa(process.execPath, ["--import", "tsx", join(import.meta.dirname, "cli.ts"), ...args], { reject: false, cwd: join(import.meta.dirname, "..") });

describe("bench CLI input", () => {
  it("rejects an unknown flag with exit code 2 and says which", async () => {
    const r = await cli("--no-such-flag");
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("unknown option '--no-such-flag'");
  }, 60_000);

  it("rejects an unknown product with exit code 2 and lists the known ones", async () => {
    const r = await cli("--products", "nosuch", "--bootstrap", "127.0.0.1:1");
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('unknown product "nosuch"');
    expect(r.stderr).toContain("node-passthrough");
  }, 60_000);

  it("refuses --agreement beside --sweep, --faults or --rate with exit code 2, before any broker", async () => {
    for (const other of [["--sweep"], ["--faults"], ["--rate", "20000"]]) {
      const r = await cli("--agreement", ...other, "--products", "node", "--bootstrap", "127.0.0.1:1");
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain("--agreement runs the fast search and a sweep per row");
    }
  }, 120_000);

  it("refuses an unknown --serving, an address that is no gRPC one, and --model-server beside embedded, with exit code 2", async () => {
    const unknown = await cli("--serving", "remote", "--products", "node", "--bootstrap", "127.0.0.1:1");
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain("Allowed choices are embedded, served");
    const http = await cli("--model-server", "http://localhost:8080", "--products", "node", "--bootstrap", "127.0.0.1:1");
    expect(http.exitCode).toBe(2);
    expect(http.stderr).toContain("is not a gRPC address: give host:port or grpc://host:port");
    const embedded = await cli("--serving", "embedded", "--model-server", "localhost:8081", "--products", "node", "--bootstrap", "127.0.0.1:1");
    expect(embedded.exitCode).toBe(2);
    expect(embedded.stderr).toContain("--model-server goes with --serving served");
  }, 120_000);

  it("lists every adapter folder's products as one line of JSON for the CI matrix", async () => {
    const r = await cli("--list", "--json");
    expect(r.exitCode).toBe(0);
    expect(r.stdout.trim().split("\n")).toHaveLength(1);
    const entries = JSON.parse(r.stdout) as { id: string; package: string; ciRate: number }[];
    const adapters = join(repoRoot(), "packages", "adapters");
    const packages = readdirSync(adapters)
      .filter((f) => existsSync(join(adapters, f, "package.json")))
      .map((f) => (JSON.parse(readFileSync(join(adapters, f, "package.json"), "utf8")) as { name: string }).name);
    expect([...new Set(entries.map((e) => e.package))].sort()).toEqual(packages.sort());
    expect(new Set(entries.map((e) => e.id)).size).toBe(entries.length);
    for (const e of entries) expect(Number.isInteger(e.ciRate) && e.ciRate > 0).toBe(true);
    // The CI rates the products carry (the hand-written matrix's values before they moved there).
    expect(Object.fromEntries(entries.map((e) => [e.id, e.ciRate]))).toMatchObject({ node: 20000, "node-passthrough": 20000, quix: 2000, faststream: 5000 });
  }, 60_000);

  it("refuses --json without --list rather than starting a bench", async () => {
    const r = await cli("--json");
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("--json goes with --list");
  }, 60_000);

  it("reports how far each search in results files repeated itself, and refuses a file that is not one with exit code 2", async () => {
    const fixtures = join(import.meta.dirname, "page", "__fixtures__");
    const r = await cli("repeats", join(fixtures, "agreement-fast.json"), join(fixtures, "agreement-sweep.json"));
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain("agreement-fast.json (fast): ran 2 pairs of steps at one rate");
    expect(r.stdout).toContain("all 2 files (both): ran 5 pairs of steps at one rate; one kept up and the other saturated in 0");
    const bad = await cli("repeats", join(import.meta.dirname, "no-such-results.json"));
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain("repeats: ");
  }, 60_000);

  it("renders the agreement table against --agree-with's files merged, as against the one file they were split from", async () => {
    const fixtures = join(import.meta.dirname, "page", "__fixtures__");
    const dir = mkdtempSync(join(tmpdir(), "agree-with-"));
    const sweep = JSON.parse(readFileSync(join(fixtures, "agreement-sweep.json"), "utf8")) as { runs: { product: string }[]; sweeps: { product: string }[] };
    const part = (products: string[]) => ({
      ...sweep,
      runs: sweep.runs.filter((r) => products.includes(r.product)),
      sweeps: sweep.sweeps.filter((s) => products.includes(s.product)),
    });
    writeFileSync(join(dir, "a.json"), JSON.stringify(part(["node", "faststream"])));
    writeFileSync(join(dir, "b.json"), JSON.stringify(part(["spark"])));
    const fast = join(fixtures, "agreement-fast.json");
    const whole = await cli("render", fast, "--agree-with", join(fixtures, "agreement-sweep.json"), "-o", join(dir, "whole.md"));
    const merged = await cli("render", fast, "--agree-with", `${join(dir, "a.json")},${join(dir, "b.json")}`, "-o", join(dir, "merged.md"));
    expect([whole.exitCode, merged.exitCode]).toEqual([0, 0]);
    const agreement = (file: string) => readFileSync(join(dir, file), "utf8").split("\n## ").find((s) => s.includes("| knee agrees |"));
    expect(agreement("whole.md")).toContain("| spark |");
    expect(agreement("merged.md")).toEqual(agreement("whole.md"));
  }, 60_000);

  it("rejects a malformed rate with exit code 2", async () => {
    const r = await cli("--rate", "fast");
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("not a positive whole rate");
  }, 60_000);
});

describe("parseRates", () => {
  it("reads a single rate or per-product rates with a default", () => {
    expect(parseRates("5000").fallback).toBe(5000);
    const r = parseRates("node=80000, default=20000,faststream=30000");
    expect(r.fallback).toBe(20000);
    expect([...r.byProduct]).toEqual([["node", 80000], ["faststream", 30000]]);
  });
});
