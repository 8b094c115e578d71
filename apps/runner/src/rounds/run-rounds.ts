/**
 * The main command's measurement: each row's knee searched once (rows in a random order), then
 * rounds: every row once per round at the sitting's load share of its knee (load-share.ts), in a
 * fresh random order each round (RMIT: randomized multiple interleaved trials, Abedi and Brecht,
 * ICPE 2017), so the host's slow phases land on different rows in different rounds and a row's
 * rounds are independent measurements spread over the sitting.
 *
 *   Every round is a session of its own (start, gate, one window, stop, audit), so a row's rounds
 *   are measured alike: a window in the search's warm session is not one of them, since minutes of
 *   paced steps leave some products cheaper (flink) or dearer (node) per record than a fresh start.
 *   ALWAYS_ROUNDS rounds always run, short ones (ROUND_WARMUP_SEC, ROUND_WINDOW_RULE), since a
 *   row's rounds differ by session more than by window; then one make-up round, whatever the
 *   budget says: for every row when the sitting is less sure than it aims to be
 *   (TARGET_MEDIAN_HALF_WIDTH), else for the rows that lost one of them or whose interval is still
 *   wide (WIDE_HALF_WIDTH), so a lost or stray round costs a row one session more, not its interval;
 *   a later round goes to rows with fewer than MIN_COUNTING_ROUNDS counting rounds and to rows
 *   with an UNKNOWN neighbour (standing.ts), as many as the budget holds, until every row is
 *   ranked and every neighbouring pair resolved, or MAX_ROUNDS.
 *   A row that falls behind even at the load share moves down for its later rounds (knee-moves.ts).
 *
 * A row with a cold start works it off at its round's rate before its window, so that every round
 * measures the product warm.
 */
import type { Prepared, Product } from "@bench/core";
import type { BenchResults, KneeMove, RunResult } from "../results/types.ts";
import type { BenchContext, RunSettings } from "../run/measure.ts";
import { PacedSession } from "../run/paced-session.ts";
import type { WindowStopRule } from "../metrics/window-stop.ts";
import { runSummary } from "../summary.ts";
import { searchInSession } from "../sweep/in-session.ts";
import {
  halfWidths, MIN_COUNTING_ROUNDS, standings, TARGET_MEDIAN_HALF_WIDTH, unresolvedRows, WIDE_HALF_WIDTH, type Standings,
} from "./standing.ts";
import { median } from "../metrics/stats.ts";
import { halfWidth } from "./intervals.ts";
import { kneeAfterRounds, moveSentence } from "./knee-moves.ts";
import { LOAD_SHARE } from "./load-share.ts";
import type { AfterRound } from "../model-alone/rounds.ts";
import { rowAdmin, rowFault } from "../row-fault.ts";

/**
 * Rounds every row with a knee gets whatever the budget says. A row's rounds differ mostly from one
 * session to the next, not within a window (docs/method.md, Rounds), so short rounds buy more
 * certainty than long ones; three are the fewest whose moderated interval (moderation.ts) stays
 * within a few percent for a row whose rounds all count, and each one more costs every row a session.
 */
export const ALWAYS_ROUNDS = 3;
/** No row gets more rounds than this: past it, an order still unknown is a tie for this sitting. */
export const MAX_ROUNDS = 10;
/**
 * A round's product starts cold, and its window begins once it has settled, no sooner than the
 * bench's warm-up; the settle may take this much longer again.
 */
export const ROUND_SETTLE_ALLOWANCE_SEC = 30;
/**
 * A round's window never starts sooner than this after gendata starts (the gate decides when, as
 * for every window): a fresh session's seconds after it cost what its window's do.
 */
export const ROUND_WARMUP_SEC = 5;
/**
 * A round's window: 10 s, whatever its interval says. At 0.7 × knee a row keeps up with room to
 * spare, so a shorter window does not flip its regime as it can near the knee, and the seconds go
 * to a further round instead.
 */
export const ROUND_WINDOW_RULE: WindowStopRule = { minSec: 10, maxSec: 10, relHalfWidth: 0.02 };
/** The round in which each row's window is followed by its profiling phase (the page's CPU breakdown). */
export const PROFILED_ROUND = 2;

/** A row the rounds measure: what its session needs, its knee and the rate its rounds run at. */
export interface RoundRow {
  product: Product;
  prepared: Prepared;
  settings: RunSettings;
  /** The knee its search found: the capacity figure, and the rate of a window `--also-at-knee` adds. */
  knee: number;
  /** The rate its rounds run at: LOAD_SHARE of the knee, lower once it moved (knee-moves.ts). */
  rate: number;
}

/** The time the rounds are planned in. */
export interface RoundsClock {
  budgetMs: number;
  /** Milliseconds measured so far (preparation not counted). */
  spentMs(): number;
}

/** Fisher–Yates: a fresh random order. */
export function shuffled<T>(items: readonly T[], random: () => number = Math.random): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/**
 * The rows of round `round`, or why none runs. `rows`: the rows with a knee; `costMs`: what a
 * round of these rows is expected to take (their rounds so far).
 */
export function nextRound(
  round: number,
  rows: readonly string[],
  results: BenchResults,
  clock: RoundsClock,
  costMs: (ids: readonly string[]) => number,
): { rows: string[] } | { stop: string } {
  if (rows.length === 0) return { stop: "no row has a knee to run rounds at" };
  if (round <= ALWAYS_ROUNDS) return { rows: [...rows] };
  if (round > MAX_ROUNDS) return { stop: `the rounds reached their cap of ${MAX_ROUNDS}` };
  const s = standings(results);
  const counting = (id: string): number => s.rows.find((r) => r.product === id)?.byRound.size ?? 0;
  const makeUp = makeUpRows(round, rows, s);
  const left = clock.budgetMs - clock.spentMs() - costMs(makeUp);
  const short = rows.filter((id) => counting(id) < MIN_COUNTING_ROUNDS && !makeUp.includes(id));
  const unresolved = unresolvedRows(s).filter((id) => rows.includes(id) && !short.includes(id) && !makeUp.includes(id));
  if (short.length + unresolved.length === 0) {
    if (makeUp.length > 0) return { rows: makeUp };
    return { stop: `after ${round - 1} rounds every row is ranked and every pair of neighbouring rows is told apart or the same` };
  }
  // A row without an interval needs a round more than a pair without a verdict does, and a pair
  // is compared only in the rounds both rows ran: the pairs' rows go all together or not at all.
  if (costMs([...short, ...unresolved]) <= left) return { rows: [...makeUp, ...short, ...unresolved] };
  const shortThatFit = fitting(short, left, costMs);
  if (makeUp.length + shortThatFit.length > 0) return { rows: [...makeUp, ...shortThatFit] };
  const minutes = (ms: number): string => (Math.max(0, ms) / 60_000).toFixed(1);
  const open = [...short.map((id) => `${id} (fewer than ${MIN_COUNTING_ROUNDS} counting rounds)`), ...unresolved];
  const why = left <= 0
    ? `the searches and rounds had taken ${minutes(clock.spentMs())} min of the budget's ${minutes(clock.budgetMs)}`
    : `the budget's ${minutes(left)} min left would not hold another round of ${open.length} rows (about ${minutes(costMs([...short, ...unresolved]))} min)`;
  return { stop: `after ${round - 1} rounds ${why}; ${open.join(", ")} stay unresolved` };
}

/**
 * The make-up round's rows (round ALWAYS_ROUNDS + 1), which run whatever the budget says: every row
 * when the sitting's median half-width is still wider than it aims at, else a row that lost an
 * always-run round, or whose interval is wide.
 */
function makeUpRows(round: number, rows: readonly string[], s: Standings): string[] {
  if (round !== ALWAYS_ROUNDS + 1) return [];
  const widths = halfWidths(s);
  if (widths.length > 0 && median(widths) > TARGET_MEDIAN_HALF_WIDTH) return [...rows];
  return rows.filter((id) => {
    const row = s.rows.find((r) => r.product === id);
    const wide = row?.interval !== undefined && halfWidth(row.interval) > WIDE_HALF_WIDTH;
    return (row?.byRound.size ?? 0) < ALWAYS_ROUNDS || wide;
  });
}

/** The rows of `wanted`, in order, that a round within `leftMs` can hold; a row costlier than what is left makes way for the next. */
function fitting(wanted: readonly string[], leftMs: number, costMs: (ids: readonly string[]) => number): string[] {
  const chosen: string[] = [];
  for (const id of wanted) if (costMs([...chosen, id]) <= leftMs) chosen.push(id);
  return chosen;
}

/** A round's run settings: the row's own, the round's warm-up, settle allowance and window, and the profile in PROFILED_ROUND. */
export function roundSettings(row: Pick<RoundRow, "settings">, round: number, profileSec: number): RunSettings {
  const settleCapSec = Math.max(row.settings.settleCapSec, ROUND_WARMUP_SEC + ROUND_SETTLE_ALLOWANCE_SEC);
  const profile = round === PROFILED_ROUND ? profileSec : 0;
  return { ...row.settings, warmupSec: ROUND_WARMUP_SEC, settleCapSec, windowRule: ROUND_WINDOW_RULE, profileSec: profile };
}

/**
 * The round's windows in an open session: one at the row's rate, tagged with the round and the
 * load share, then with `alsoAtKnee` one at the knee beside it (never ranked, shown beside).
 */
async function roundWindows(
  session: PacedSession, row: RoundRow, round: number, onRun: (run: RunResult) => void, alsoAtKnee: boolean,
): Promise<RunResult> {
  const run = await session.step(row.rate, "round");
  Object.assign(run, { round, loadShare: LOAD_SHARE });
  onRun(run);
  if (alsoAtKnee) {
    const atKnee = await session.step(row.knee, "round");
    Object.assign(atKnee, { round, loadShare: 1 });
    onRun(atKnee);
  }
  return run;
}

/** One row's round: a session of its own; `audited` ends when its audit has read (it reads on while the next row starts). */
export async function roundAt(
  row: RoundRow,
  round: number,
  bench: BenchContext,
  onRun: (run: RunResult) => void,
  options: { profileSec: number; alsoAtKnee: boolean },
): Promise<{ audited: Promise<void> }> {
  const id = row.product.id;
  const session = new PacedSession(row.product, row.prepared, roundSettings(row, round, options.profileSec), bench, `round-${round}`);
  bench.log(`== ${id}: round ${round} at ${row.rate}/s, ${LOAD_SHARE} of its knee ${row.knee}/s (a session of its own: start, gate, one window)`);
  const coldStartSec = row.product.coldStartSec;
  const { outcome: run, audit } = await searchInSession(session, async () => {
    if (coldStartSec !== undefined) {
      bench.log(`== ${id}: its cold start worked off first: ${coldStartSec} s at ${row.rate}/s, then drained`);
      await session.warmUp(row.rate, coldStartSec);
    }
    return roundWindows(session, row, round, onRun, options.alsoAtKnee);
  });
  bench.log(`== ${id}: round ${round} -> ${runSummary(run)}`);
  return {
    audited: audit.then((why) => {
      if (why !== undefined) bench.log(`== ${id}: round ${round}'s audit found: ${why}`);
    }),
  };
}

/** What the rounds need of the bench: its rows, where runs go, the clock. */
export interface RoundsPlan {
  rows: RoundRow[];
  results: BenchResults;
  clock: RoundsClock;
  profileSec: number;
  keep: (run: RunResult) => void;
  /** Written again once an audit has read (it settles its run's status). */
  write: () => void;
  /** Where rows moved when their knee did not hold: filled as the rounds run. */
  moves: KneeMove[];
  /** Run after each round once its audits have read (the model alone's timing). */
  afterRound?: AfterRound;
  /** `--also-at-knee`: each round adds a window at the knee beside the one at the load share. */
  alsoAtKnee: boolean;
  /** A row whose round threw: kept as failed; returns why the bench cannot go on, or undefined (main-command.ts). */
  rowFailed(product: Product, why: string): Promise<string | undefined>;
}

/** Rounds from the first, until nextRound says why not; returns why, and records each round's order. */
export async function runRounds(plan: RoundsPlan, bench: BenchContext, order: string[][]): Promise<string> {
  const durations = new Map<string, number[]>();
  const costMs = (ids: readonly string[]): number => ids.reduce((sum, id) => sum + mean(durations.get(id) ?? []), 0);
  for (let round = 1; ; round++) {
    if (bench.interrupted()) return `the bench was ${bench.interrupted()}`;
    const next = nextRound(round, plan.rows.map((r) => r.product.id), plan.results, plan.clock, costMs);
    if ("stop" in next) return next.stop;
    const rows = shuffled(plan.rows.filter((r) => next.rows.includes(r.product.id)));
    order.push(rows.map((r) => r.product.id));
    bench.log(`\n== round ${round}: ${rows.map((r) => r.product.id).join(", ")}`);
    for (const row of rows) {
      if (bench.interrupted()) break;
      const started = Date.now();
      const options = { profileSec: plan.profileSec, alsoAtKnee: plan.alsoAtKnee };
      const failure = await rowFault(async () => {
        const { audited } = await roundAt(row, round, { ...bench, admin: rowAdmin(bench.admin, row.product.id) }, plan.keep, options);
        bench.afterwards?.(audited.then(plan.write));
      });
      const gone = failure === undefined ? undefined : await plan.rowFailed(row.product, failure);
      if (gone !== undefined) return gone;
      // A later round has no profiling phase: its cost is the round's without it.
      const took = Date.now() - started - (round === PROFILED_ROUND ? plan.profileSec * 1000 : 0);
      durations.set(row.product.id, [...(durations.get(row.product.id) ?? []), took]);
    }
    // The next round's plan reads this round's verdicts: every audit has read first.
    await bench.quiet?.();
    moveKnees(rows, round, plan, bench);
    await plan.afterRound?.(round, plan.rows.map((row) => row.product));
  }
}

/** Rows whose rounds did not hold at their rate so far move down (knee-moves.ts); the move is logged and kept. */
function moveKnees(rows: readonly RoundRow[], round: number, plan: RoundsPlan, bench: BenchContext): void {
  for (const row of rows) {
    const move = kneeAfterRounds(plan.results, row.product.id, row.rate, round, LOAD_SHARE);
    if (move === undefined) continue;
    bench.log(`== ${row.product.id}: ${moveSentence(move)}`);
    plan.moves.push(move);
    row.rate = move.to;
  }
}

const mean = (xs: readonly number[]): number => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);

