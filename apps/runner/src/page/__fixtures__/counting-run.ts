/** Results for the page's unit tests: counting runs (valid, settled, quiet, keep-up) built from a product, a rate and a cost. */
import type { BenchResults, RunResult } from "../../results/types.ts";

const quiet = { speedIndexBefore: 600_000, speedIndexAfter: 600_000, foreignCpuAvg: 1, foreignCpuMax: 2, stealAvg: 0, noisy: false, noisyBecause: [] };

/** A counting run of `product` at `rate` costing `micros`, on Python unless `extra` says otherwise. */
export function countingRun(product: string, rate: number, micros: number, extra: Partial<RunResult> = {}): RunResult {
  return {
    product,
    status: "ok",
    settled: true,
    conditions: quiet,
    startedAt: "2026-12-01T18:00:00.000Z",
    settings: { offeredRate: rate, warmupSec: 10, windowSec: 20, parallelism: 2, seed: 1 },
    row: { delivery: "", processing: "", engine: "", scaling: "", decode: "" },
    versions: { python: "3.11.2" },
    deviations: [],
    notes: [],
    consumedSource: "group offsets",
    throughput: {
      offeredPerSec: rate,
      consumedPerSec: rate,
      regime: "keep-up",
      lagDrift: 0,
      cpuAvg: 50,
      rowsPerCore: 1e6 / micros,
      rowsPerGb: 1,
      cpuMicrosPerInference: micros,
      outputPerSec: rate,
      extraRecordsPerRecord: 0,
    },
    gendataWarnings: [],
    ticks: [],
    ...extra,
  };
}

/** A page's results holding only these runs. */
export const resultsOf = (runs: RunResult[]): BenchResults => ({ runs }) as unknown as BenchResults;
