import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tableFromIPC } from "apache-arrow";
import { repoRoot } from "@bench/core";
import { ARROW_FILES, writeArrowFiles } from "./arrow.ts";
import { readResultsFile } from "./files.ts";
import type { BenchResults } from "./types.ts";

// The committed sweep, as the bench wrote it (not re-derived): 39 runs, five sweeps.
const resultsPath = join(repoRoot(), "docs", "results", "2026-11-30", "results-all.json.gz");

describe("Arrow export", () => {
  const results: BenchResults = readResultsFile(resultsPath);
  const dir = mkdtempSync(join(tmpdir(), "arrow-"));
  const paths = writeArrowFiles(dir, results);
  const read = (name: string) => tableFromIPC(readFileSync(join(dir, name)));

  it("writes the three files", () => {
    expect(paths.map((p) => p.slice(dir.length + 1))).toEqual(["ticks.arrow", "runs.arrow", "sweep-steps.arrow"]);
  });

  it("reads back every tick of every run with the same figures", () => {
    const ticks = read(ARROW_FILES.ticks).toArray().map((r) => r.toJSON());
    const expected = results.runs.flatMap((r, run) => r.ticks.map((t) => ({ run, product: r.product, ...t })));
    expect(ticks).toHaveLength(expected.length);
    expect(expected.length).toBeGreaterThan(1000);
    ticks.forEach((row, i) => {
      const e = expected[i]!;
      expect(
        [row.run, row.product, row.t, row.phase, row.input_end, row.consumed, row.output_end, row.cpu_percent, row.mem_mb, row.processes, row.mem_instrument],
      ).toEqual([
        e.run, e.product, e.t, e.phase, e.inputEnd, e.consumed, e.outputEnd, e.cpuPercent, e.memMb, e.processes, e.instrument,
      ]);
    });
  });

  it("reads back one row per run with its derived figures and latency percentiles", () => {
    const runs = read(ARROW_FILES.runs).toArray().map((r) => r.toJSON());
    expect(runs).toHaveLength(results.runs.length);
    runs.forEach((row, i) => {
      const r = results.runs[i]!;
      expect(row.product).toBe(r.product);
      expect(row.status).toBe(r.status);
      expect(row.consumed_per_sec).toBe(r.throughput?.consumedPerSec ?? null);
      expect(row.cpu_us_per_inference).toBe(r.throughput?.cpuMicrosPerInference ?? null);
      expect(row.rows_per_core).toBe(r.throughput?.rowsPerCore ?? null);
      expect(row.latency_p99_ms).toBe(r.delivery?.latencyMs?.p99 ?? null);
      expect(row.lost).toBe(r.delivery?.lost ?? null);
      expect(row.speed_index_before).toBeNull(); // schema-1 results record none
      expect(row.cpython_index_before).toBeNull(); // nor runtime yardstick readings
      expect(row.runtime_mix).toBeNull();
    });
  });

  it("reads back every sweep step", () => {
    const steps = read(ARROW_FILES.steps).toArray().map((r) => r.toJSON());
    const expected = (results.sweeps ?? []).flatMap((w) => w.steps.map((s, i) => ({ product: w.product, step: i + 1, knee: w.knee ?? null, ...s })));
    expect(steps.map((s) => [s.product, s.step, s.rate, s.offered_per_sec, s.consumed_per_sec, s.regime, s.gendata_short, s.knee])).toEqual(
      expected.map((s) => [s.product, s.step, s.rate, s.offeredPerSec, s.consumedPerSec, s.regime ?? null, s.gendataShort, s.knee]),
    );
  });
});
