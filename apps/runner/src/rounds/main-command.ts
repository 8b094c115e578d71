/**
 * The main command, start to end: each row prepared and its knee searched in a session of its
 * own, rows in a random order; then the rounds (run-rounds.ts), every one a session of its own at
 * the load share of each row's knee, within the budget. Preparing a product (its first-time
 * installs and builds) is set-up: the budget's clock stops meanwhile.
 */
import type { Prepared, Product } from "@bench/core";
import type { BenchResults, KneeMove, RunResult, SweepRecord } from "../results/types.ts";
import type { BenchContext, RunSettings } from "../run/measure.ts";
import { fastKneeProduct } from "../sweep/run-fast.ts";
import { ALWAYS_ROUNDS, runRounds, shuffled, type RoundRow } from "./run-rounds.ts";
import { LOAD_SHARE, rateAtShare } from "./load-share.ts";
import type { AfterRound } from "../model-alone/rounds.ts";
import { rowAdmin, rowFault } from "../row-fault.ts";
import { sweepOf } from "../results/sweeps.ts";

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
  /** Times the model alone, and a served bench's own server alone, after a round (model-alone/, serving/server-alone.ts); absent: neither runs. */
  afterRound?: AfterRound;
  /** `--also-at-knee`: each round adds a window at the knee beside the one at the load share. */
  alsoAtKnee: boolean;
  /**
   * A row whose session threw (row-fault.ts): kept as a failed row with its reason. Returns why the
   * bench cannot go on (the broker no longer answers), or undefined: the next row runs.
   */
  rowFailed(product: Product, why: string): Promise<string | undefined>;
}

/** A row whose knee was searched: what its rounds need but the knee and the rate. */
type SearchedRow = Omit<RoundRow, "knee" | "rate">;

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
  const products = shuffled(chosen);
  const searchOrder = products.map((p) => p.id);
  const order: string[][] = [];
  const searched: SearchedRow[] = [];
  bench.log(`\n== the knee searches: ${searchOrder.join(", ")}`);
  for (const product of products) {
    if (bench.interrupted()) break;
    const prepared = await clock.outside(() => parts.prepare(product));
    if (prepared === undefined) continue;
    const settings = parts.settings(product);
    const failure = await rowFault(async () => {
      const { audited } = await fastKneeProduct(product, prepared, settings, rowBench(bench, product.id), parts.keep, false);
      parts.keepSearch(audited);
    });
    if (failure === undefined) searched.push({ product, prepared, settings });
    const gone = failure === undefined ? undefined : await parts.rowFailed(product, failure);
    if (gone !== undefined) return endEarly(parts, clock, searchOrder, order, gone, bench);
  }
  await bench.quiet?.();
  const moves: KneeMove[] = [];
  const stoppedBecause = await runRounds(
    {
      rows: rowsWithKnee(searched, parts.results),
      results: parts.results,
      clock: { budgetMs: parts.budgetSec * 1000, spentMs: () => clock.spentMs() },
      profileSec: parts.profileSec,
      keep: parts.keep,
      write: parts.write,
      moves,
      alsoAtKnee: parts.alsoAtKnee,
      rowFailed: parts.rowFailed,
      ...(parts.afterRound ? { afterRound: parts.afterRound } : {}),
    },
    bench,
    order,
  );
  await endEarly(parts, clock, searchOrder, order, stoppedBecause, bench, moves);
}

/** The rounds' record, written: after the last round, or when the broker went away and no row can run. */
async function endEarly(
  parts: MainCommandParts, clock: BudgetClock, searchOrder: string[], order: string[][], stoppedBecause: string, bench: BenchContext,
  moves: KneeMove[] = [],
): Promise<void> {
  await bench.quiet?.();
  parts.results.rounds = {
    budgetSec: parts.budgetSec,
    spentSec: Math.round(clock.spentMs() / 1000),
    prepareSec: Math.round(clock.prepareMs / 1000),
    searchOrder,
    order,
    stoppedBecause,
    loadShare: LOAD_SHARE,
    alwaysRounds: ALWAYS_ROUNDS,
    ...(parts.alsoAtKnee ? { alsoAtKnee: true } : {}),
    ...(moves.length > 0 ? { moves } : {}),
  };
  bench.log(`\n== rounds: ${stoppedBecause}`);
  parts.write();
}

/** The bench as one row's session sees it: its admin is the bench's own, or the test seam's (row-fault.ts). */
export const rowBench = (bench: BenchContext, productId: string): BenchContext => ({ ...bench, admin: rowAdmin(bench.admin, productId) });

/**
 * The searched rows whose knee stood once their session's audit had read, each at the load share
 * of it: an audit that found the output wanting withdraws the knee, and the row gets no round.
 */
function rowsWithKnee(searched: readonly SearchedRow[], results: BenchResults): RoundRow[] {
  return searched.flatMap((row) => {
    const knee = sweepOf(results, row.product.id)?.knee;
    return knee === undefined ? [] : [{ ...row, knee, rate: rateAtShare(knee, LOAD_SHARE) }];
  });
}
