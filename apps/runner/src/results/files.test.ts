import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import type { BenchResults, OverloadResult, Tick } from "./types.ts";
import { readResults, readResultsFile, writeResults } from "./files.ts";

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
});
