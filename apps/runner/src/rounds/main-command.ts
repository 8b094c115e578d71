/**
 * The main command, start to end: each row prepared and its knee searched (round 1), rows in a
 * random order; then the rounds at the knees (run-rounds.ts) within the budget. Preparing a
 * product (its first-time installs and builds) is set-up: the budget's clock stops meanwhile.
 */
import type { Prepared, Product } from "@bench/core";
import type { BenchResults, KneeMove, RunResult, SweepRecord } from "../results/types.ts";
import type { BenchContext, RunSettings } from "../run/measure.ts";
import { fastKneeProduct } from "../sweep/run-fast.ts";
import { runRounds, shuffled, tagSearchRound, type RoundRow } from "./run-rounds.ts";
import { standings } from "./standing.ts";
import { moveSentence } from "./knee-moves.ts";
import type { AfterRound } from "../model-alone/rounds.ts";

/** What the main command needs of the bench around it. */
export interface MainCommandParts {
  /** Prepared, or why the product cannot run here (its row is then kept as skipped). */
  prepare(product: Product): Promise<Prepared | undefined>;
  settings(product: Product): RunSettings;
  keep(run: RunResult): void;
  /** A search's record, kept once its session's audit has read. */
  keepSearch(audited: Promise<SweepRecord>): void;
  write(): void;
  results: BenchResults;
  budgetSec: number;
  profileSec: number;
  /** Times the model alone after a round (model-alone/rounds.ts); absent when it cannot run here. */
  afterRound?: AfterRound;
}

/** A stopwatch that can be paused: the budget counts measuring, not preparing. */
class BudgetClock {
  private readonly started = Date.now();
  private pausedMs = 0;
  async outside<T>(work: () => Promise<T>): Promise<T> {
    const from = Date.now();
    try {
      return await work();
    } finally {
      this.pausedMs += Date.now() - from;
    }
  }
  spentMs(): number {
    return Date.now() - this.started - this.pausedMs;
  }
  get prepareMs(): number {
    return this.pausedMs;
  }
}

export async function mainCommand(chosen: readonly Product[], parts: MainCommandParts, bench: BenchContext): Promise<void> {
  const clock = new BudgetClock();
  const searchOrder = shuffled(chosen);
  const order: string[][] = [searchOrder.map((p) => p.id)];
  const searched: Array<Omit<RoundRow, "knee">> = [];
  bench.log(`\n== round 1 (the knee searches): ${order[0]?.join(", ")}`);
  for (const product of searchOrder) {
    if (bench.interrupted()) break;
    const prepared = await clock.outside(() => parts.prepare(product));
    if (prepared === undefined) continue;
    const settings = parts.settings(product);
    const { audited } = await fastKneeProduct(product, prepared, settings, bench, parts.keep, false);
    parts.keepSearch(audited);
    searched.push({ product, prepared, settings });
  }
  await bench.quiet?.();
  await parts.afterRound?.(1, searched.map((row) => row.product));
  const rows = kneeRows(searched, parts.results);
  const budgetMs = parts.budgetSec * 1000;
  const moves: KneeMove[] = [];
  const stoppedBecause = await runRounds(
    {
      rows,
      results: parts.results,
      clock: { budgetMs, spentMs: () => clock.spentMs() },
      profileSec: parts.profileSec,
      keep: parts.keep,
      write: parts.write,
      moves,
      ...(parts.afterRound ? { afterRound: parts.afterRound } : {}),
    },
    bench,
    order,
  );
  await bench.quiet?.();
  heldInRounds(parts.results, moves);
  parts.results.rounds = {
    budgetSec: parts.budgetSec,
    spentSec: Math.round(clock.spentMs() / 1000),
    prepareSec: Math.round(clock.prepareMs / 1000),
    order,
    stoppedBecause,
    ...(moves.length > 0 ? { moves } : {}),
  };
  bench.log(`\n== rounds: ${stoppedBecause}`);
  parts.write();
}

/**
 * The rounds' word on each search's knee: a row that moved down has its knee there, bracketed by the
 * rate it left; a knee is confirmed when the row kept up at it in at least two rounds.
 */
function heldInRounds(results: BenchResults, moves: readonly KneeMove[]): void {
  const s = standings(results);
  for (const sweep of results.sweeps ?? []) {
    const row = s.rows.find((r) => r.product === sweep.product);
    if (sweep.knee === undefined || row === undefined) continue;
    const mine = moves.filter((m) => m.product === sweep.product);
    const last = mine.at(-1);
    if (last !== undefined) movedKnee(sweep, last, mine.map(moveSentence));
    const atThisKnee = row.rounds.filter((r) => r.run.settings.offeredRate === sweep.knee);
    const atKnee = atThisKnee.filter((r) => r.counts).length;
    const ran = atThisKnee.length;
    sweep.confirmed = atKnee >= 2;
    sweep.stoppedBecause = `${sweep.stoppedBecause} In the rounds it kept up at ${sweep.knee.toLocaleString("en-US")}/s in ${atKnee} of ${ran}.`;
  }
}

/** The sweep's record after its row moved down: the knee where it went, the bracket's top where it left. */
function movedKnee(sweep: SweepRecord, last: KneeMove, sentences: string[]): void {
  const scale = last.to / (sweep.knee as number);
  sweep.knee = last.to;
  sweep.bracket = { keptUp: last.to, saturated: last.from };
  if (sweep.kneeAtReference !== undefined) sweep.kneeAtReference = Math.round(sweep.kneeAtReference * scale);
  sweep.stoppedBecause = `${sweep.stoppedBecause} ${sentences.join(" ")}`;
}

/** The searched rows that found a knee, their knee's window tagged as round 1. */
function kneeRows(searched: ReadonlyArray<Omit<RoundRow, "knee">>, results: BenchResults): RoundRow[] {
  const rows: RoundRow[] = [];
  for (const row of searched) {
    const knee = results.sweeps?.find((s) => s.product === row.product.id)?.knee;
    if (knee === undefined) continue;
    tagSearchRound(results, row.product.id, knee);
    rows.push({ ...row, knee });
  }
  return rows;
}
