/**
 * How the fast knee search (the main command) agrees with a `--sweep` of the same rows: per row,
 * the knee of each and whether they are within one of the sweep's bisection steps, and µs CPU
 * per inference at each knee with their ratio and whether it is within ±COST_AGREEMENT.
 * `render fast/results.json --agree-with sweep/results.json` adds it to the page.
 */
import type { BenchResults, RunResult, SweepRecord } from "../results/types.ts";
import { median } from "../metrics/stats.ts";
import { dec1, int, table } from "./format.ts";
import { resultRuns } from "./rows.ts";
import { microsAtReference, runSpeed } from "./speed.ts";

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
  /** The median speed index of the runs at each knee, fast ÷ sweep: under 1, the fast search ran while the machine was slower. */
  speedRatio?: number;
  /** µs per inference at the reference speed (speed.ts), fast ÷ sweep: what is left of costRatio once each side's speed is taken out. */
  refCostRatio?: number;
  /** The knees at the reference speed (each search's kneeAtReference), fast ÷ sweep. */
  refKneeRatio?: number;
}

/** The runs that count as results at a search's knee. */
function runsAtKnee(results: BenchResults, sweep: SweepRecord | undefined): RunResult[] {
  if (sweep?.knee === undefined) return [];
  return resultRuns(results.runs.filter((r) => r.product === sweep.product), sweep.knee);
}

/** The median of a figure over runs, undefined when no run has it. */
function medianOf(runs: readonly RunResult[], figure: (r: RunResult) => number | undefined): number | undefined {
  const values = runs.map(figure).filter((v): v is number => v !== undefined);
  return values.length > 0 ? median(values) : undefined;
}

const ratio = (a: number | undefined, b: number | undefined): number | undefined => (a !== undefined && b !== undefined && b > 0 ? a / b : undefined);

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
    const fastRuns = runsAtKnee(fast, f);
    const sweepRuns = runsAtKnee(sweep, s);
    const fm = medianOf(fastRuns, (r) => r.throughput?.cpuMicrosPerInference);
    const sm = medianOf(sweepRuns, (r) => r.throughput?.cpuMicrosPerInference);
    if (fm !== undefined) row.fastMicros = fm;
    if (sm !== undefined) row.sweepMicros = sm;
    const costRatio = ratio(fm, sm);
    if (costRatio !== undefined) {
      row.costRatio = costRatio;
      row.costAgrees = Math.abs(costRatio - 1) <= COST_AGREEMENT;
    }
    const speedRatio = ratio(medianOf(fastRuns, runSpeed), medianOf(sweepRuns, runSpeed));
    if (speedRatio !== undefined) row.speedRatio = speedRatio;
    const refCostRatio = ratio(medianOf(fastRuns, microsAtReference), medianOf(sweepRuns, microsAtReference));
    if (refCostRatio !== undefined) row.refCostRatio = refCostRatio;
    const refKneeRatio = ratio(f?.kneeAtReference, s?.kneeAtReference);
    if (refKneeRatio !== undefined) row.refKneeRatio = refKneeRatio;
    return row;
  });
}

const yesNo = (b: boolean | undefined): string => (b === undefined ? "–" : b ? "yes" : "**no**");
const opt = (n: number | undefined, f: (x: number) => string): string => (n === undefined ? "–" : f(n));
const ratio3 = (x: number): string => x.toFixed(3);

export function agreementSection(fast: BenchResults, sweep: BenchResults): string[] {
  const rows = rowAgreements(fast, sweep);
  const judged = rows.filter((r) => r.kneeAgrees !== undefined && r.costAgrees !== undefined);
  const both = judged.filter((r) => r.kneeAgrees && r.costAgrees).length;
  return [
    "## The fast knee against the sweep",
    "",
    `Each row's knee found by the main command (a drain, then paced runs under its ceiling) and by \`--sweep\` (${sweep.generatedAt.slice(0, 10)}). The knees agree when they are within one of the sweep's bisection steps at its knee (its lowest saturated rate above the knee, less the knee); µs CPU per inference at each knee (the median of the runs that count there) agree within ±${COST_AGREEMENT * 100}%. Speed: the median speed index of those runs, fast ÷ sweep (under 1, the machine was slower while the fast search ran there); @ ref: the knees' and the µs' ratios with each run's speed taken out (the page's @ ref figures), which show how much of a difference the machine's speed explains. A dash: that search gave no figure (no knee, no saturated rate above it, no run that counts, or no speed reading).`,
    "",
    table(
      ["product", "knee fast /s", "knee sweep /s", "sweep step /s", "knee agrees", "µs/inf fast", "µs/inf sweep", "fast ÷ sweep", "µs agrees", "speed fast ÷ sweep", "knee @ ref fast ÷ sweep", "µs @ ref fast ÷ sweep"],
      rows.map((r) => [
        r.product, opt(r.fastKnee, int), opt(r.sweepKnee, int), opt(r.sweepStep, int), yesNo(r.kneeAgrees),
        opt(r.fastMicros, dec1), opt(r.sweepMicros, dec1), opt(r.costRatio, ratio3), yesNo(r.costAgrees),
        opt(r.speedRatio, ratio3), opt(r.refKneeRatio, ratio3), opt(r.refCostRatio, ratio3),
      ]),
    ),
    "",
    `Both agree for ${both} of ${judged.length} rows judged${rows.length > judged.length ? ` (${rows.length - judged.length} could not be judged)` : ""}.`,
    "",
  ];
}
