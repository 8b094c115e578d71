import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import type { BenchResults, OverloadResult, Tick } from "./types.ts";
import { readResults, readResultSets, readResultsFile, writeResults } from "./files.ts";

const tick = (t: number, phase: Tick["phase"], inputEnd: number, consumed: number): Tick => ({
  t,
  phase,
  inputEnd,
  consumed,
  outputEnd: consumed,
  cpuPercent: 90,
  memMb: 100,
  processes: 1,
  instrument: "pss",
});

describe("reading results", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "results-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("reads an overload's figures again from its ticks: a backlog that only the drain emptied was not worked off", () => {
    // 1,000/s with 500 waiting; a burst (t 11-15) leaves 5,500 waiting; it stays there until gendata stops (t 21) and the drain empties it.
    const ticks = [
      ...Array.from({ length: 10 }, (_, i) => tick(i + 1, "window", (i + 1) * 1000, (i + 1) * 1000 - 500)),
      ...Array.from({ length: 5 }, (_, i) => tick(11 + i, "window", 10_000 + (i + 1) * 2000, 9_500 + (i + 1) * 1000)),
      ...Array.from({ length: 5 }, (_, i) => tick(16 + i, "window", 20_000 + (i + 1) * 1000, 14_500 + (i + 1) * 1000)),
      ...Array.from({ length: 3 }, (_, i) => tick(21 + i, "drain", 25_000, Math.min(25_000, 19_500 + (i + 1) * 2500))),
    ];
    const overload = {
      product: "p",
      status: "ok",
      settings: { offeredRate: 1000, burstRate: 2000, burstSec: 5, workOffLimitSec: 5, parallelism: 1, seed: 1, baseFrom: "rate" },
      burst: { fromSec: 10, toSec: 15 },
      workedOffSec: 7,
      ticks,
    } as unknown as OverloadResult;
    const results = { schema: 2, generatedAt: "2026-12-02T00:00:00Z", runs: [], overloads: [overload] } as unknown as BenchResults;
    const path = join(dir, "results.json");
    writeResults(path, results);
    const read = readResults([path]).overloads?.[0];
    expect(read?.workedOffSec).toBeUndefined();
    expect(read?.backlogAfterBurst).toBe(5_500);
  });

  it("reads a gzipped results file (.json.gz) as the plain one it was made from", () => {
    const results = { schema: 2, generatedAt: "2026-12-02T00:00:00Z", runs: [], sweeps: [] } as unknown as BenchResults;
    const plain = join(dir, "results.json");
    writeResults(plain, results);
    const gz = join(dir, "results.json.gz");
    writeFileSync(gz, gzipSync(JSON.stringify(results), { level: 9 }));
    expect(readResultsFile(gz)).toEqual(results);
    expect(readResults([gz])).toEqual(readResults([plain]));
  });

  it("keeps two models' rows apart: one set per model, and one page's merge refuses to mix them", () => {
    const wide = { name: "risk_mlp_wide", hidden: [144, 144], multiplyAddsPerRecord: 21_456, weightsSha256: "w" };
    const run = (product: string) => ({ product, status: "ok", settings: { offeredRate: 1000 }, ticks: [] });
    const file = (name: string, model: object | undefined, products: string[]): string => {
      const path = join(dir, name);
      const results = { schema: 2, generatedAt: "2026-12-05T00:00:00Z", runs: products.map(run), sweeps: [], ...(model ? { model } : {}) };
      writeResults(path, results as unknown as BenchResults);
      return path;
    };
    const seed = file("seed.json", undefined, ["node", "rust"]);
    const heavy = file("wide.json", wide, ["node"]);
    const seedAgain = file("seed-2.json", { name: "risk_mlp", hidden: [16], multiplyAddsPerRecord: 80, weightsSha256: "s" }, ["quix"]);
    const sets = readResultSets([seed, heavy, seedAgain]);
    expect(sets.map((s) => s.model?.name)).toEqual([undefined, "risk_mlp_wide"]);
    expect(sets.map((s) => s.runs.map((r) => r.product).sort())).toEqual([["node", "quix", "rust"], ["node"]]);
    expect(() => readResults([seed, heavy])).toThrow(/hold rows of different models \(risk_mlp, risk_mlp_wide\)/);
  });

  it("keeps two guarantees' rows apart as it keeps two models'", () => {
    const file = (name: string, guarantee: string | undefined, products: string[]): string => {
      const path = join(dir, name);
      const runs = products.map((product) => ({ product, status: "ok", settings: { offeredRate: 1000 }, ticks: [] }));
      writeResults(path, { schema: 2, generatedAt: "2026-12-05T00:00:00Z", runs, sweeps: [], ...(guarantee ? { guarantee } : {}) } as unknown as BenchResults);
      return path;
    };
    const atLeastOnce = file("alo.json", undefined, ["rust", "spark"]);
    const exactlyOnce = file("eo.json", "exactly-once", ["rust"]);
    const exactlyOnceFaults = file("eo-faults.json", "exactly-once", ["quix"]);
    const sets = readResultSets([atLeastOnce, exactlyOnce, exactlyOnceFaults]);
    expect(sets.map((s) => s.guarantee)).toEqual([undefined, "exactly-once"]);
    expect(sets.map((s) => s.runs.map((r) => r.product).sort())).toEqual([["rust", "spark"], ["quix", "rust"]]);
    expect(() => readResults([atLeastOnce, exactlyOnce])).toThrow(/different guarantees \(at-least-once, exactly-once\)/);
  });
});
