/**
 * "What the framework adds": for each row that runs on a runtime some row is the plain-client
 * floor of (Product.floorFor, e.g. the plain Python Kafka loop), the row's µs CPU per record
 * minus the floor's, at a rate both kept up with. A page's results files come from one host, so
 * the difference is a same-machine one; the table gives when the paired runs started, so a reader
 * sees whether they were measured in one sitting.
 */
import type { BenchResults, RunResult } from "../results/types.ts";
import { median } from "../metrics/stats.ts";
import { dec2, int, table } from "./format.ts";
import { countsAsResult } from "./rows.ts";

export interface FrameworkAddsRow {
  product: string;
  floor: string;
  rate: number;
  /** Median µs CPU per record over the counting runs at the rate, and how many runs. */
  rowMicros: number;
  rowRuns: number;
  floorMicros: number;
  floorRuns: number;
  adds: number;
  /** Start times (ISO) of the earliest and latest of the paired runs. */
  from: string;
  to: string;
}

const micros = (run: RunResult): number => run.throughput!.cpuMicrosPerInference;

/** Counting runs per product, then per offered rate. */
function countingByRate(runs: readonly RunResult[]): Map<string, Map<number, RunResult[]>> {
  const out = new Map<string, Map<number, RunResult[]>>();
  for (const run of runs.filter(countsAsResult)) {
    const byRate = out.get(run.product) ?? new Map<number, RunResult[]>();
    byRate.set(run.settings.offeredRate, [...(byRate.get(run.settings.offeredRate) ?? []), run]);
    out.set(run.product, byRate);
  }
  return out;
}

/** Every (row, floor, shared keep-up rate) pair, rows in page order, rates high to low. */
export function frameworkAdds(results: BenchResults): FrameworkAddsRow[] {
  const floors = results.runs.filter((r) => r.floorFor !== undefined);
  const byProduct = countingByRate(results.runs);
  const out: FrameworkAddsRow[] = [];
  for (const floor of new Set(floors.map((r) => r.product))) {
    const runtime = floors.find((r) => r.product === floor)!.floorFor!;
    const floorRates = byProduct.get(floor) ?? new Map<number, RunResult[]>();
    const rows = [...byProduct.keys()].filter((p) => p !== floor && results.runs.some((r) => r.product === p && r.versions[runtime] !== undefined && !r.passthrough));
    for (const product of rows) {
      const rates = [...(byProduct.get(product) as Map<number, RunResult[]>).entries()].filter(([rate]) => floorRates.has(rate)).sort(([a], [b]) => b - a);
      for (const [rate, runs] of rates) {
        const floorRuns = floorRates.get(rate) as RunResult[];
        const rowMicros = median(runs.map(micros));
        const floorMicros = median(floorRuns.map(micros));
        const starts = [...runs, ...floorRuns].map((r) => r.startedAt).sort();
        out.push({ product, floor, rate, rowMicros, rowRuns: runs.length, floorMicros, floorRuns: floorRuns.length, adds: rowMicros - floorMicros, from: starts[0] as string, to: starts.at(-1) as string });
      }
    }
  }
  return out;
}

/** "2026-12-01 16:02–16:40" (the date once when both fall on one day). */
export function startSpan(from: string, to: string): string {
  const [fromDay, fromTime] = [from.slice(0, 10), from.slice(11, 16)];
  const [toDay, toTime] = [to.slice(0, 10), to.slice(11, 16)];
  if (fromDay !== toDay) return `${fromDay} ${fromTime} – ${toDay} ${toTime}`;
  return fromTime === toTime ? `${fromDay} ${fromTime}` : `${fromDay} ${fromTime}–${toTime}`;
}

export function frameworkAddsSection(results: BenchResults): string[] {
  const rows = frameworkAdds(results);
  if (rows.length === 0) return [];
  return [
    "## What the framework adds",
    "",
    table(
      ["product", "over", "at rate/s", "row µs / record (runs)", "floor µs / record (runs)", "framework adds µs", "× floor", "runs started (UTC)"],
      rows.map((r) => [
        r.product, r.floor, int(r.rate), `${dec2(r.rowMicros)} (${r.rowRuns})`, `${dec2(r.floorMicros)} (${r.floorRuns})`,
        `${r.adds >= 0 ? "+" : ""}${dec2(r.adds)}`, `${(r.rowMicros / r.floorMicros).toFixed(2)}×`, startSpan(r.from, r.to),
      ]),
    ),
    "",
    "The floor is the plain client loop on the same runtime: what decoding, scoring and republishing cost with no framework around them. A row's µs minus the floor's, at a rate both kept up with in this bench on this machine (medians over the counting runs at that rate), is what the framework adds. Both are CPU of the whole process tree per record; rates below a row's knee carry more fixed cost per record, so compare rows at the same rate only.",
    "",
  ];
}
