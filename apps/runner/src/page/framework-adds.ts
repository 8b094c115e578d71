/**
 * "What the framework adds": each row read against the floors measured in the same bench (Product.floorFor),
 * the row's µs CPU per record minus the floor's, at a rate both kept up with. The native floor
 * (a compiled loop with no runtime around it) is the floor of every row; a runtime's plain-client
 * floor (e.g. the plain Python Kafka loop) is the floor of the rows whose versions name that runtime. A page's results files come from one host, so
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
  /** Set when the pair is each one at its knee (no rate both kept up with): the floor's knee rate. */
  floorRate?: number;
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

/** The floorFor of the row every other row is read against, whatever its runtime. */
export const NATIVE_FLOOR = "native";

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

/** The floors on the page, the native one first, each with the runtime it is the floor of. */
function floorsOf(results: BenchResults): Array<[product: string, runtime: string]> {
  const floors = new Map<string, string>();
  for (const r of results.runs) if (r.floorFor !== undefined && !floors.has(r.product)) floors.set(r.product, r.floorFor);
  return [...floors].sort(([, a], [, b]) => Number(b === NATIVE_FLOOR) - Number(a === NATIVE_FLOOR));
}

/** The native floor reads every scoring row; a runtime's floor the rows on that runtime. */
function readsAgainst(run: RunResult, runtime: string): boolean {
  return !run.passthrough && run.floorFor !== NATIVE_FLOOR && (runtime === NATIVE_FLOOR || run.versions[runtime] !== undefined);
}

/** A row's figure as the page's answer ranks it: at its knee after a knee search, else at the rate it ran. */
export interface RankedFigure {
  rate: number;
  micros: number;
  runs: number;
  startedAt: string;
}

/**
 * Every (row, floor, shared keep-up rate) pair, the native floor's first, rows in page order,
 * rates high to low. A pair that shares no rate (a knee search runs each row near its own knee)
 * is read at each one's knee from `ranked`, and says so.
 */
export function frameworkAdds(results: BenchResults, ranked: ReadonlyMap<string, RankedFigure> = new Map()): FrameworkAddsRow[] {
  const byProduct = countingByRate(results.runs);
  const out: FrameworkAddsRow[] = [];
  for (const [floor, runtime] of floorsOf(results)) {
    const floorRates = byProduct.get(floor) ?? new Map<number, RunResult[]>();
    const rows = [...byProduct.keys()].filter((p) => p !== floor && results.runs.some((r) => r.product === p && readsAgainst(r, runtime)));
    for (const product of rows) {
      const rates = [...(byProduct.get(product) as Map<number, RunResult[]>).entries()].filter(([rate]) => floorRates.has(rate)).sort(([a], [b]) => b - a);
      const [row, floorAtKnee] = [ranked.get(product), ranked.get(floor)];
      if (rates.length === 0 && row !== undefined && floorAtKnee !== undefined) out.push(atKnees(product, floor, row, floorAtKnee));
      for (const [rate, runs] of rates) {
        const floorRuns = floorRates.get(rate) as RunResult[];
        const rowMicros = median(runs.map(micros));
        const floorMicros = median(floorRuns.map(micros));
        const starts = [...runs, ...floorRuns].map((r) => r.startedAt).sort();
        out.push(
          {
            product,
            floor,
            rate,
            rowMicros,
            rowRuns: runs.length,
            floorMicros,
            floorRuns: floorRuns.length,
            adds: rowMicros - floorMicros,
            from: starts[0] as string,
            to: starts.at(-1) as string,
          },
        );
      }
    }
  }
  return out;
}

function atKnees(product: string, floor: string, row: RankedFigure, floorAt: RankedFigure): FrameworkAddsRow {
  const starts = [row.startedAt, floorAt.startedAt].sort();
  return {
    product, floor, rate: row.rate, floorRate: floorAt.rate, rowMicros: row.micros, rowRuns: row.runs, floorMicros: floorAt.micros, floorRuns: floorAt.runs,
    adds: row.micros - floorAt.micros, from: starts[0] as string, to: starts[1] as string,
  };
}

/** "YYYY-MM-DD 16:02–16:40": start and end of the runs (the date once when both fall on one day). */
export function startSpan(from: string, to: string): string {
  const [fromDay, fromTime] = [from.slice(0, 10), from.slice(11, 16)];
  const [toDay, toTime] = [to.slice(0, 10), to.slice(11, 16)];
  if (fromDay !== toDay) return `${fromDay} ${fromTime} – ${toDay} ${toTime}`;
  return fromTime === toTime ? `${fromDay} ${fromTime}` : `${fromDay} ${fromTime}–${toTime}`;
}

export function frameworkAddsSection(results: BenchResults, ranked: ReadonlyMap<string, RankedFigure> = new Map()): string[] {
  const rows = frameworkAdds(results, ranked);
  if (rows.length === 0) return [];
  return [
    "## What the framework adds",
    "",
    table(
      ["product", "over", "at rate/s", "row µs / record (runs)", "floor µs / record (runs)", "framework adds µs", "× floor", "runs started (UTC)"],
      rows.map((r) => [
        r.product, r.floor, r.floorRate === undefined ? int(r.rate) : `${int(r.rate)} / ${int(r.floorRate)} (knees)`, `${dec2(r.rowMicros)} (${r.rowRuns})`,
        `${dec2(r.floorMicros)} (${r.floorRuns})`,
        `${r.adds >= 0 ? "+" : ""}${dec2(r.adds)}`, `${(r.rowMicros / r.floorMicros).toFixed(2)}×`, startSpan(r.from, r.to),
      ]),
    ),
    "",
    "A floor is what decoding, scoring and republishing cost with no framework around them. The native floor (a compiled loop over librdkafka and ONNX " +
      "Runtime, no runtime) is the floor of every row: what the machine needs for the work. A runtime's floor (the plain client loop on that runtime, e.g. " +
      "the plain Python loop) is the floor of the rows on that runtime: what the framework adds over the language. A row's µs minus the floor's, at a rate " +
      "both kept up with in this bench on this machine (medians over the counting runs at that rate), is what the framework adds. Both are CPU of the whole " +
      "process tree per record. Rates below a row's knee carry more fixed cost per record, so a pair is read at a rate both kept up with where there is one; " +
      "where there is none (a knee search runs each row near its own knee) the pair is each one at its knee, marked \"(knees)\": what the framework adds " +
      "when both run as fast as they sustain.",
    "",
  ];
}
