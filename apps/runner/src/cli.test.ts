import { execa } from "execa";
import { join } from "node:path";
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
