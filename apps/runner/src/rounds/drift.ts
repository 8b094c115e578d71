/**
 * A host's drift within one sitting, taken out of each round's figure where the speed index follows
 * it. On machines of this kind the same work moves by 10–40 % in phases of minutes, and on some
 * hosts the speed index (run/speed-index.ts), read before and after every run, follows the steps of
 * that drift: there each round's µs is scaled by its run's speed index over the sitting's median
 * index (a run in a phase 10 % faster than the sitting's middle counts 10 % dearer), so rounds on
 * both sides of a step come together, and the figure stays in this host's units (µs at the
 * sitting's median speed). On other hosts the index swings by itself, and scaling by it spreads
 * rounds that agreed raw. So a sitting takes its rounds to the median speed only when that brings
 * each row's rounds closer together than raw, summed over its rows (driftChoice), and says which.
 * Across machines nothing is claimed: the index did not carry a row's cost from one host to another
 * in a two-host test (docs/method.md).
 */
import type { BenchResults, RunResult } from "../results/types.ts";
import { median } from "../metrics/stats.ts";
import { runSpeed } from "../page/speed.ts";

/** The median speed index over the sitting's runs with a reading, or undefined when none has one. */
export function sittingSpeed(results: BenchResults): number | undefined {
  const speeds = results.runs.map(runSpeed).filter((s): s is number => s !== undefined);
  return speeds.length > 0 ? median(speeds) : undefined;
}

/**
 * The run's µs CPU per inference at the sitting's median speed: µs × its speed ÷ the sitting's. A
 * run without a reading, or a sitting without any, keeps its raw figure.
 */
export function driftCorrected(run: RunResult, sitting: number | undefined): number | undefined {
  const micros = run.throughput?.cpuMicrosPerInference;
  const speed = runSpeed(run);
  if (micros === undefined || speed === undefined || sitting === undefined) return micros;
  return (micros * speed) / sitting;
}

/** One counting round of a row: its raw µs and its µs at the sitting's median speed. */
export interface RoundFigure {
  raw: number;
  corrected: number;
}

/** Whether the sitting's rounds are taken to its median speed, and the pooled spread of a row's rounds either way. */
export interface DriftChoice {
  corrected: boolean;
  /** The pooled standard deviation of log µs within a row, as a share (e^sd − 1): raw, and at the median speed; undefined with no row of two rounds. */
  spreadRaw?: number;
  spreadCorrected?: number;
}

/** The pooled within-row standard deviation of `pick`'s logs, as a share; undefined without a row of two rounds. */
function pooledSpread(rows: ReadonlyArray<readonly RoundFigure[]>, pick: (f: RoundFigure) => number): number | undefined {
  let squares = 0;
  let freedom = 0;
  for (const row of rows) {
    if (row.length < 2) continue;
    const logs = row.map((f) => Math.log(pick(f)));
    const mean = logs.reduce((a, b) => a + b, 0) / logs.length;
    squares += logs.reduce((sum, x) => sum + (x - mean) ** 2, 0);
    freedom += logs.length - 1;
  }
  return freedom > 0 ? Math.exp(Math.sqrt(squares / freedom)) - 1 : undefined;
}

/**
 * The sitting's rounds are taken to its median speed when that makes each row's rounds agree more
 * closely than raw, pooled over its rows (`rows`: each row's counting rounds); else the raw figures
 * stand. A sitting with no row of two rounds keeps the correction, which a single round cannot test.
 */
export function driftChoice(rows: ReadonlyArray<readonly RoundFigure[]>): DriftChoice {
  const spreadRaw = pooledSpread(rows, (f) => f.raw);
  const spreadCorrected = pooledSpread(rows, (f) => f.corrected);
  if (spreadRaw === undefined || spreadCorrected === undefined) return { corrected: true };
  return { corrected: spreadCorrected < spreadRaw, spreadRaw, spreadCorrected };
}
