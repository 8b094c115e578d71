/**
 * The runtime yardstick's probes for real: Debian's python3.11 with orjson and Java 17 with
 * Jackson, built into the bench's cache as a bench builds them, each read twice.
 */
import { homedir } from "node:os";
import { join } from "node:path";
import { readRuntimes } from "../../src/yardstick/read.ts";
import { CPYTHON_PROCESSES } from "../../src/yardstick/cpython.ts";
import { JVM_PROCESSES } from "../../src/yardstick/jvm.ts";

const cacheDir = process.env.BENCH_CACHE_DIR ?? join(homedir(), ".cache", "stream-ml-bench");
const ctx = { cacheDir, modelsDir: join(import.meta.dirname, "..", "..", "..", "..", "models"), log: () => undefined };

describe("runtime yardstick", () => {
  it("reads CPython and the JVM doing the same work in every fresh process, every time", async () => {
    const a = await readRuntimes(ctx);
    const b = await readRuntimes(ctx);
    expect(a.missing).toBeUndefined();
    expect(a.cpython?.runtime).toMatch(/^python 3\.11\.\d+, orjson 3\.13\.0$/);
    expect(a.jvm?.runtime).toMatch(/^java 17\.[\d.]+, jackson 2\.19\.0$/);
    expect(a.cpython?.processes).toHaveLength(CPYTHON_PROCESSES);
    expect(a.jvm?.processes).toHaveLength(JVM_PROCESSES);
    for (const runtime of ["cpython", "jvm"] as const) {
      expect(a[runtime]?.checksum).toBeGreaterThan(0);
      expect(b[runtime]?.checksum).toBe(a[runtime]?.checksum);
      expect(a[runtime]?.processes.every((x) => x > 0)).toBe(true);
    }
  }, 300_000);
});
