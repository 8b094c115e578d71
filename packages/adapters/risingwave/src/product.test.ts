import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { modelsDir, repoRoot } from "@bench/core";
import { ENV_BIN, ENV_URL, NOT_AVAILABLE_FIX, NOT_AVAILABLE_REASON } from "./locate.ts";
import { products } from "./index.ts";

describe("risingwave product", () => {
  const saved = { bin: process.env[ENV_BIN], url: process.env[ENV_URL] };
  afterEach(() => {
    for (const [name, value] of [[ENV_BIN, saved.bin], [ENV_URL, saved.url]] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  test("is discovered as one row with every first-table column filled", () => {
    expect(products.map((p) => p.id)).toEqual(["risingwave"]);
    const row = products[0]!.row;
    for (const value of Object.values(row)) expect(value.length).toBeGreaterThan(0);
  });

  test("prepare() without a server skips the row with the exact reason, before building anything", async () => {
    delete process.env[ENV_BIN];
    delete process.env[ENV_URL];
    const logged: string[] = [];
    const cacheDir = mkdtempSync(join(tmpdir(), "rw-prepare-"));
    const result = await products[0]!.prepare({ repoRoot: repoRoot(), modelsDir: modelsDir(), cacheDir, log: (l) => logged.push(l) });
    expect(result).toEqual({ ok: false, reason: `${NOT_AVAILABLE_REASON} (fix: ${NOT_AVAILABLE_FIX})` });
    expect(logged).toEqual([]);
  });

  test("prepare() refuses an unreachable RISINGWAVE_URL with the error", async () => {
    delete process.env[ENV_BIN];
    // Port 9 (discard) on loopback: nothing listens there.
    process.env[ENV_URL] = "postgres://root@127.0.0.1:9/dev";
    const cacheDir = mkdtempSync(join(tmpdir(), "rw-prepare-"));
    const result = await products[0]!.prepare({ repoRoot: repoRoot(), modelsDir: modelsDir(), cacheDir, log: () => undefined });
    expect(result.ok).toBe(false);
    expect(result.ok === false && result.reason).toMatch(/RISINGWAVE_URL=postgres:\/\/root@127\.0\.0\.1:9\/dev is not reachable: .*ECONNREFUSED/);
  });
});
