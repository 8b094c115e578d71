/**
 * How the fast knee search (the main command) agrees with a `--sweep` of the same rows: per row,
 * the knee of each and whether they are within one of the sweep's bisection steps, and µs CPU
 * per inference at each knee with their ratio and whether it is within ±COST_AGREEMENT.
 * `render fast/results.json --agree-with sweep/results.json` adds it to the page.
 */
import type { BenchResults, RunResult, SweepRecord } from "../results/types.ts";
import { median } from "../metrics/stats.ts";
import { dec1, int, table } from "./format.ts";
import { countsAsResult } from "./rows.ts";

/** µs per inference at the two knees agree when their ratio is within 1 ± this. */
export const COST_AGREEMENT = 0.05;

export interface RowAgreement {
  product: string;
  fastKnee?: number;
  sweepKnee?: number;
  /** The sweep's resolution at its knee: its lowest saturated rate above the knee, less the knee. */
  sweepStep?: number;
  kneeAgrees?: boolean;
  fastMicros?: number;
  sweepMicros?: number;
  /** fast ÷ sweep. */
  costRatio?: number;
  costAgrees?: boolean;
}

/** Median µs per inference of the runs that count as results at a search's knee. */
function microsAtKnee(results: BenchResults, sweep: SweepRecord | undefined): number | undefined {
  if (sweep?.knee === undefined) return undefined;
  const costs = results.runs
    .filter((r: RunResult) => r.product === sweep.product && r.settings.offeredRate === sweep.knee && countsAsResult(r))
    .map((r) => r.throughput?.cpuMicrosPerInference as number);
  return costs.length > 0 ? median(costs) : undefined;
}

function sweepStep(sweep: SweepRecord | undefined): number | undefined {
  if (sweep?.knee === undefined) return undefined;
  const knee = sweep.knee;
  if (sweep.bracket !== undefined) return sweep.bracket.saturated !== undefined ? sweep.bracket.saturated - knee : undefined;
  // Results written before the search kept its bracket.
  const above = sweep.steps.filter((s) => s.regime === "saturated" && s.rate > knee && !s.gendataShort && s.noisy === undefined).map((s) => s.rate);
  return above.length > 0 ? Math.min(...above) - knee : undefined;
}

export function rowAgreements(fast: BenchResults, sweep: BenchResults): RowAgreement[] {
  const products = [...new Set([...(fast.sweeps ?? []), ...(sweep.sweeps ?? [])].map((s) => s.product))];
  return products.map((product) => {
    const f = fast.sweeps?.find((s) => s.product === product);
    const s = sweep.sweeps?.find((x) => x.product === product);
    const row: RowAgreement = { product };
    if (f?.knee !== undefined) row.fastKnee = f.knee;
    if (s?.knee !== undefined) row.sweepKnee = s.knee;
    const step = sweepStep(s);
    if (step !== undefined) row.sweepStep = step;
    if (row.fastKnee !== undefined && row.sweepKnee !== undefined && step !== undefined) row.kneeAgrees = Math.abs(row.fastKnee - row.sweepKnee) <= step;
    const fm = microsAtKnee(fast, f);
    const sm = microsAtKnee(sweep, s);
    if (fm !== undefined) row.fastMicros = fm;
    if (sm !== undefined) row.sweepMicros = sm;
    if (fm !== undefined && sm !== undefined && sm > 0) {
      row.costRatio = fm / sm;
      row.costAgrees = Math.abs(row.costRatio - 1) <= COST_AGREEMENT;
    }
    return row;
  });
}

const yesNo = (b: boolean | undefined): string => (b === undefined ? "–" : b ? "yes" : "**no**");
const opt = (n: number | undefined, f: (x: number) => string): string => (n === undefined ? "–" : f(n));

export function agreementSection(fast: BenchResults, sweep: BenchResults): string[] {
  const rows = rowAgreements(fast, sweep);
  const judged = rows.filter((r) => r.kneeAgrees !== undefined && r.costAgrees !== undefined);
  const both = judged.filter((r) => r.kneeAgrees && r.costAgrees).length;
  return [
    "## The fast knee against the sweep",
    "",
    `Each row's knee found by the main command (a drain, then paced runs under its ceiling) and by \`--sweep\` (${sweep.generatedAt.slice(0, 10)}). The knees agree when they are within one of the sweep's bisection steps at its knee (its lowest saturated rate above the knee, less the knee); µs CPU per inference at each knee (the median of the runs that count there) agree within ±${COST_AGREEMENT * 100}%. A dash: that search gave no figure (no knee, no saturated rate above it, or no run that counts).`,
    "",
    table(
      ["product", "knee fast /s", "knee sweep /s", "sweep step /s", "knee agrees", "µs/inf fast", "µs/inf sweep", "fast ÷ sweep", "µs agrees"],
      rows.map((r) => [
        r.product, opt(r.fastKnee, int), opt(r.sweepKnee, int), opt(r.sweepStep, int), yesNo(r.kneeAgrees),
        opt(r.fastMicros, dec1), opt(r.sweepMicros, dec1), opt(r.costRatio, (x) => x.toFixed(3)), yesNo(r.costAgrees),
      ]),
    ),
    "",
    `Both agree for ${both} of ${judged.length} rows judged${rows.length > judged.length ? ` (${rows.length - judged.length} could not be judged)` : ""}.`,
    "",
  ];
}
