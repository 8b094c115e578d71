/**
 * The runtime yardstick's readings on this machine beside the speed index's: N readings in a
 * row, each printed as one JSON line, then each runtime's median and coefficient of variation.
 * This is what a machine of another vendor runs to compare its runtimes' proportions:
 *   pnpm --filter runner exec tsx src/tools/yardstick-readings.ts 5
 */
import { homedir } from "node:os";
import { join } from "node:path";
import { coefficientOfVariation, median } from "../metrics/stats.ts";
import { measureSpeedIndex } from "../run/speed-index.ts";
import { readRuntimes } from "../yardstick/read.ts";

async function main(count: number): Promise<void> {
  const ctx = {
    cacheDir: process.env.BENCH_CACHE_DIR ?? join(homedir(), ".cache", "stream-ml-bench"),
    modelsDir: join(import.meta.dirname, "..", "..", "..", "..", "models"),
    log: console.error,
  };
  const series: Record<string, number[]> = { v8: [], cpython: [], jvm: [] };
  for (let i = 0; i < count; i++) {
    const v8 = await measureSpeedIndex();
    const r = await readRuntimes(ctx);
    series.v8!.push(v8.recordsPerCpuSecond);
    if (r.cpython) series.cpython!.push(r.cpython.recordsPerCpuSecond);
    if (r.jvm) series.jvm!.push(r.jvm.recordsPerCpuSecond);
    const round = (xs: readonly number[] | undefined): number[] | undefined => xs?.map(Math.round);
    console.log(
      JSON.stringify(
        {
          v8: round(v8.isolates),
          cpython: round(r.cpython?.processes),
          jvm: round(r.jvm?.processes),
          runtimes: [r.cpython?.runtime, r.jvm?.runtime],
          ...(r.missing ? { missing: r.missing } : {}),
        },
      ),
    );
  }
  for (const [runtime, xs] of Object.entries(series)) {
    if (xs.length > 0) console.log(
      `${runtime}: median ${Math.round(median(xs))} records per CPU-second over ${xs.length} readings, CV ${(coefficientOfVariation(xs) * 100).toFixed(2)}%`,
    );
  }
}

void main(Number(process.argv[2] ?? 5));
