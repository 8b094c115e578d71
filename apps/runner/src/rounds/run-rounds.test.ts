import { countingRun, resultsOf } from "../page/__fixtures__/counting-run.ts";
import type { RunResult } from "../results/types.ts";
import type { RunSettings } from "../run/measure.ts";
import {
  ALWAYS_ROUNDS, MAX_ROUNDS, nextRound, PROFILED_ROUND, ROUND_SETTLE_ALLOWANCE_SEC, ROUND_WARMUP_SEC, ROUND_WINDOW_RULE, roundSettings, shuffled,
} from "./run-rounds.ts";
import { halfWidths, standings, TARGET_MEDIAN_HALF_WIDTH, WIDE_HALF_WIDTH } from "./standing.ts";
import { median } from "../metrics/stats.ts";
import { halfWidth, type Interval } from "./intervals.ts";

const rounds = (product: string, micros: number[]): RunResult[] => micros.map((m, i) => countingRun(product, 10_000, m, { round: i + 1 }));
const clock = (budgetMin: number, spentMin: number) => ({ budgetMs: budgetMin * 60_000, spentMs: () => spentMin * 60_000 });
const perRow = (min: number) => (ids: readonly string[]) => ids.length * min * 60_000;

describe("nextRound", () => {
  const unresolved = resultsOf([...rounds("a", [10, 12, 9]), ...rounds("b", [11, 10, 10]), ...rounds("c", [50, 52, 51])]);

  it("runs every row in every round up to ALWAYS_ROUNDS, whatever the budget says", () => {
    const twoRounds = resultsOf([...rounds("a", [10, 12]), ...rounds("b", [11, 10]), ...rounds("c", [50, 52])]);
    expect(nextRound(2, ["a", "b", "c"], twoRounds, clock(30, 60), perRow(1))).toEqual({ rows: ["a", "b", "c"] });
    expect(nextRound(ALWAYS_ROUNDS, ["a", "b", "c"], twoRounds, clock(30, 60), perRow(1))).toEqual({ rows: ["a", "b", "c"] });
  });

  it("after the make-up round, runs only the rows with an UNKNOWN neighbour, while the budget holds a round of them", () => {
    expect(nextRound(ALWAYS_ROUNDS + 2, ["a", "b", "c"], unresolved, clock(40, 30), perRow(1))).toEqual({ rows: ["a", "b"] });
    const over = nextRound(ALWAYS_ROUNDS + 2, ["a", "b", "c"], unresolved, clock(40, 39), perRow(1));
    const stays = "the budget's 1.0 min left would not hold another round of 2 rows (about 2.0 min); a, b stay unresolved";
    expect(over).toEqual({ stop: expect.stringContaining(stays) });
    const spent = nextRound(ALWAYS_ROUNDS + 2, ["a", "b", "c"], unresolved, clock(30, 39), perRow(1));
    expect(spent).toEqual({ stop: "after 4 rounds the searches and rounds had taken 39.0 min of the budget's 30.0; a, b stay unresolved" });
  });

  it("gives a row that lost one of the first rounds a make-up round, whatever the budget says", () => {
    const lost = resultsOf([...rounds("a", [10, 10.2, 10.1]), ...rounds("b", [20, 20.3, 20.1]), ...rounds("c", [50, 50.5, 50.2]).slice(0, 2)]);
    expect(nextRound(ALWAYS_ROUNDS + 1, ["a", "b", "c"], lost, clock(40, 30), perRow(1))).toEqual({ rows: ["c"] });
    expect(nextRound(ALWAYS_ROUNDS + 1, ["a", "b", "c"], lost, clock(40, 60), perRow(1))).toEqual({ rows: ["c"] });
  });

  it("holds only one make-up round: later, a row short of an interval waits for the budget like the rest", () => {
    const moved = resultsOf([...rounds("a", [10, 12, 9]), ...rounds("b", [11, 10, 10]), ...rounds("c", [50, 52, 51]).slice(0, 1)]);
    expect(nextRound(ALWAYS_ROUNDS + 2, ["a", "b", "c"], moved, clock(40, 30), perRow(1))).toEqual({ rows: ["c", "a", "b"] });
    expect(nextRound(ALWAYS_ROUNDS + 2, ["a", "b", "c"], moved, clock(40, 38.5), perRow(1))).toEqual({ rows: ["c"] });
    const over = nextRound(ALWAYS_ROUNDS + 2, ["a", "b", "c"], moved, clock(40, 39.5), perRow(1));
    expect(over).toEqual({ stop: expect.stringContaining("c (fewer than 2 counting rounds), a, b stay unresolved") });
  });

  it("gives the make-up round to a row whose rounds all counted but whose interval is wider than WIDE_HALF_WIDTH", () => {
    const stray = resultsOf([...rounds("a", [10, 10.2, 9.9]), ...rounds("b", [30, 30.5, 29.8]), ...rounds("c", [50, 80, 51])]);
    const wide = standings(stray).rows.find((r) => r.product === "c")?.interval;
    expect(halfWidth(wide as Interval)).toBeGreaterThan(WIDE_HALF_WIDTH);
    expect(nextRound(ALWAYS_ROUNDS + 1, ["a", "b", "c"], stray, clock(40, 60), perRow(1))).toEqual({ rows: ["c"] });
  });

  it("gives the make-up round to every row when the sitting's median half-width is wider than it aims at", () => {
    const scattered = resultsOf([...rounds("a", [10, 11.5, 9.6]), ...rounds("b", [30, 34, 29]), ...rounds("c", [50, 57, 48])]);
    expect(median(halfWidths(standings(scattered)))).toBeGreaterThan(TARGET_MEDIAN_HALF_WIDTH);
    expect(nextRound(ALWAYS_ROUNDS + 1, ["a", "b", "c"], scattered, clock(40, 60), perRow(1))).toEqual({ rows: ["a", "b", "c"] });
  });

  it("runs no make-up round when every row's first rounds all counted and the sitting is as sure as it aims to be", () => {
    const resolved = resultsOf([...rounds("a", [10, 10.2, 10.1]), ...rounds("c", [50, 50.5, 50.2])]);
    expect(nextRound(ALWAYS_ROUNDS + 1, ["a", "c"], resolved, clock(40, 60), perRow(1))).toEqual({ stop: expect.stringContaining("told apart or the same") });
  });

  it("stops when every neighbouring pair is resolved, and at MAX_ROUNDS", () => {
    const resolved = resultsOf([...rounds("a", [10, 10.2, 10.1]), ...rounds("c", [50, 50.5, 50.2])]);
    expect(nextRound(ALWAYS_ROUNDS + 1, ["a", "c"], resolved, clock(40, 10), perRow(1))).toEqual({ stop: expect.stringContaining("told apart or the same") });
    expect(nextRound(MAX_ROUNDS + 1, ["a", "b", "c"], unresolved, clock(400, 0), perRow(1))).toEqual({ stop: expect.stringContaining(`cap of ${MAX_ROUNDS}`) });
  });

  it("reads the rounds at the load share while they run, before the rounds' record is written", () => {
    const atShare = (product: string, micros: number[]): RunResult[] =>
      micros.map((m, i) => countingRun(product, 7000, m, { round: i + 1, loadShare: 0.7 }));
    // Three counting rounds each at 0.7 × knee, a window at the knee beside round 1: every row is ranked, every pair told apart.
    const running = resultsOf([...atShare("a", [10, 10.2, 9.9]), ...atShare("c", [50, 51, 50.5]), countingRun("a", 10_000, 9, { round: 1, loadShare: 1 })]);
    expect(running.rounds).toBeUndefined();
    expect(nextRound(ALWAYS_ROUNDS + 1, ["a", "c"], running, clock(40, 10), perRow(1))).toEqual({ stop: expect.stringContaining("told apart or the same") });
  });
});

describe("shuffled", () => {
  it("keeps every item once", () => {
    const items = ["a", "b", "c", "d", "e"];
    expect(shuffled(items).sort()).toEqual(items);
  });
});

describe("roundSettings", () => {
  const settings = { rate: 0, warmupSec: 10, settleCapSec: 20, windowSec: 30, parallelism: 1, seed: 1, drainTimeoutSec: 60, profileSec: 0 } as RunSettings;

  it("takes the round's warm-up and window, lets the settle run past the warm-up, and profiles only in the profiled round", () => {
    const profiled = roundSettings({ settings }, PROFILED_ROUND, 15);
    expect(profiled.warmupSec).toBe(ROUND_WARMUP_SEC);
    expect(profiled.windowRule).toEqual(ROUND_WINDOW_RULE);
    expect(profiled.settleCapSec).toBe(ROUND_WARMUP_SEC + ROUND_SETTLE_ALLOWANCE_SEC);
    expect(profiled.profileSec).toBe(15);
    expect(roundSettings({ settings }, PROFILED_ROUND + 1, 15).profileSec).toBe(0);
  });
});
