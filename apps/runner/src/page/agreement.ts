/**
 * How the fast knee search (the main command) agrees with a `--sweep` of the same rows: per row,
 * the knee of each and whether they are within one of the sweep's bisection steps, and µs CPU
 * per inference at each knee with their ratio and whether it is within ±COST_AGREEMENT.
 * `render fast/results.json --agree-with sweep/results.json` adds it to the page. Any two knee
 * searches of the same rows compare the same way (the main command run twice is a control): "fast"
 * in the names below is the rendered results, "sweep" the --agree-with ones.
 */
import { hasRounds } from "./rounds.ts";
import { sittingsSection } from "./sittings.ts";
import type { BenchResults, RunResult, SweepRecord } from "../results/types.ts";
import { median } from "../metrics/stats.ts";
import { dec1, int, table } from "./format.ts";
import { resultRuns } from "./rows.ts";
import { costSpread, repeatPairs, repeatSentence, summariseRepeats } from "./repeats.ts";
import { microsAtReference, runSpeed } from "./speed.ts";
import { sweepOf } from "../results/sweeps.ts";

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
  /** How far each search's own runs at its knee agreed in µs per inference: the dearest ÷ the cheapest, less 1 (two runs or more). */
  fastRepeatSpread?: number;
  sweepRepeatSpread?: number;
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

/** The dearest run's µs per inference ÷ the cheapest's, less 1; undefined under two runs. */
function repeatSpread(runs: readonly RunResult[]): number | undefined {
  const micros = runs.map((r) => r.throughput?.cpuMicrosPerInference).filter((v): v is number => v !== undefined && v > 0);
  return micros.length > 1 ? costSpread(Math.min(...micros), Math.max(...micros)) : undefined;
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
    const f = sweepOf(fast, product);
    const s = sweepOf(sweep, product);
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
    const fastSpread = repeatSpread(fastRuns);
    const sweepSpread = repeatSpread(sweepRuns);
    if (fastSpread !== undefined) row.fastRepeatSpread = fastSpread;
    if (sweepSpread !== undefined) row.sweepRepeatSpread = sweepSpread;
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
const percent1 = (x: number): string => `${(x * 100).toFixed(1)}%`;
const spreads = (r: RowAgreement): string => `${opt(r.fastRepeatSpread, percent1)} / ${opt(r.sweepRepeatSpread, percent1)}`;

/** What each side is called on the page: its method, and when both used the same one (a control), its start time too. */
interface Sides {
  a: string;
  b: string;
  title: string;
  found: string;
}

function sides(fast: BenchResults, sweep: BenchResults): Sides {
  const method = (r: BenchResults): string => ((r.sweeps ?? []).some((s) => s.method === "fast") ? "fast" : "sweep");
  const [ma, mb] = [method(fast), method(sweep)];
  if (ma !== mb) {
    return {
      a: ma,
      b: mb,
      title: `The ${ma} knee against the ${mb}`,
      found: `by the main command (a drain, then paced runs under its ceiling) and by \`--sweep\` (${sweep.generatedAt.slice(0, 10)})`,
    };
  }
  const [ta, tb] = [fast.generatedAt.slice(11, 16), sweep.generatedAt.slice(11, 16)];
  const search = ma === "fast" ? "the main command" : "`--sweep`";
  return {
    a: `${ma} ${ta}`,
    b: `${mb} ${tb}`,
    title: `A control: ${search} against itself`,
    found: `by two runs of ${search} on the same rows, started ${ta} and ${tb} UTC (${sweep.generatedAt.slice(0, 10)})`,
  };
}

/** How far each search repeated itself in its results: the noise floor under the agreement. */
function repeatLines(fast: BenchResults, sweep: BenchResults, side: Sides): string[] {
  const sentence = (results: BenchResults): string => repeatSentence(summariseRepeats(repeatPairs(results.sweeps ?? []), COST_AGREEMENT), COST_AGREEMENT);
  return [
    `How far each search repeated itself in these results (repeats.ts: each step paired with the next one at its rate in the same search, both on a quiet ` +
      `machine and neither marked slower): the ${side.a} search ${sentence(fast)}; the ${side.b} search ${sentence(sweep)}. Two searches cannot be expected ` +
      `to agree more closely than one agrees with itself minutes later; "µs repeats" gives each search's spread over the runs at its own knee (the dearest ` +
      `÷ the cheapest, less 1).`,
    "",
  ];
}

/**
 * The agreement table of the rendered results (`fast`) against `--agree-with`'s (`sweep`): by default the main command against a sweep, or any two knee
 * searches of the same rows.
 */
export function agreementSection(fast: BenchResults, sweep: BenchResults): string[] {
  // Two sittings of the main command: their intervals say how far they agree, not one figure each.
  if (hasRounds(fast) && hasRounds(sweep)) return sittingsSection(fast, sweep);
  const rows = rowAgreements(fast, sweep);
  const judged = rows.filter((r) => r.kneeAgrees !== undefined && r.costAgrees !== undefined);
  const both = judged.filter((r) => r.kneeAgrees && r.costAgrees).length;
  const side = sides(fast, sweep);
  const { a, b } = side;
  return [
    `## ${side.title}`,
    "",
    `Each row's knee found ${side.found}. The knees agree when they are within the ${b} search's step at its knee (its lowest saturated rate above the knee, ` +
      `less the knee); µs CPU per inference at each knee (the median of the runs that count there) agree within ±${COST_AGREEMENT * 100}%. Speed: the ` +
      `median speed index of those runs, ${a} ÷ ${b} (under 1, the machine was slower while the ${a} search ran there); @ ref: the knees' and the µs' ` +
      `ratios with each run's speed taken out (the page's @ ref figures), which show how much of a difference the machine's speed explains. A dash: that ` +
      `search gave no figure (no knee, no saturated rate above it, no run that counts, or no speed reading).`,
    "",
    table(
      [
        "product",
        `knee ${a} /s`,
        `knee ${b} /s`,
        `${b} step /s`,
        "knee agrees",
        `µs/inf ${a}`,
        `µs/inf ${b}`,
        `${a} ÷ ${b}`,
        "µs agrees",
        `µs repeats ${a} / ${b}`,
        `speed ${a} ÷ ${b}`,
        `knee @ ref ${a} ÷ ${b}`,
        `µs @ ref ${a} ÷ ${b}`,
      ],
      rows.map((r) => [
        r.product, opt(r.fastKnee, int), opt(r.sweepKnee, int), opt(r.sweepStep, int), yesNo(r.kneeAgrees),
        opt(r.fastMicros, dec1), opt(r.sweepMicros, dec1), opt(r.costRatio, ratio3), yesNo(r.costAgrees), spreads(r),
        opt(r.speedRatio, ratio3), opt(r.refKneeRatio, ratio3), opt(r.refCostRatio, ratio3),
      ]),
    ),
    "",
    `Both agree for ${both} of ${judged.length} rows judged${rows.length > judged.length ? ` (${rows.length - judged.length} could not be judged)` : ""}.`,
    "",
    ...repeatLines(fast, sweep, side),
  ];
}
