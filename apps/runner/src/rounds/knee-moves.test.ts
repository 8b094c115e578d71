import { countingRun, resultsOf } from "../page/__fixtures__/counting-run.ts";
import type { RunResult } from "../results/types.ts";
import { fellBehind, kneeAfterRounds, MOVE_DOWN_SHARE, moveSentence, verdictsAt } from "./knee-moves.ts";
import { roundRate } from "../sweep/knee.ts";

/** A clean run at `rate` that did not keep up. */
const behind = (product: string, rate: number, extra: Partial<RunResult> = {}): RunResult => {
  const run = countingRun(product, rate, 12, extra);
  return { ...run, throughput: { ...(run.throughput as NonNullable<RunResult["throughput"]>), regime: "saturated", lagDrift: 0.08 } };
};
const noisy = (run: RunResult): RunResult => ({ ...run, conditions: { ...(run.conditions as NonNullable<RunResult["conditions"]>), noisy: true } });

describe("fellBehind", () => {
  it("is a clean run that saturated or never settled; a noisy, invalid or draining run says nothing against the rate", () => {
    expect(fellBehind(behind("a", 100))).toBe(true);
    const run = countingRun("a", 100, 10);
    const draining = { ...run, throughput: { ...(run.throughput as NonNullable<RunResult["throughput"]>), regime: "draining" as const, lagDrift: -0.07 } };
    expect(fellBehind(draining)).toBe(false);
    expect(fellBehind(countingRun("a", 100, 10, { settled: false }))).toBe(true);
    expect(fellBehind(countingRun("a", 100, 10))).toBe(false);
    expect(fellBehind(noisy(behind("a", 100)))).toBe(false);
    expect(fellBehind({ ...behind("a", 100), status: "invalid" })).toBe(false);
  });
});

describe("kneeAfterRounds", () => {
  const share = 0.7;
  const round = (rate: number, n: number): RunResult => countingRun("a", rate, 13, { round: n, loadShare: share });
  const behindIn = (rate: number, n: number): RunResult => behind("a", rate, { round: n, loadShare: share });

  it("holds the rate while the row kept up there in more rounds than it fell behind in", () => {
    const results = resultsOf([round(58_200, 1), round(58_200, 2), behindIn(58_200, 3)]);
    expect(kneeAfterRounds(results, "a", 58_200, 3, share)).toBeUndefined();
  });

  it("moves a row that fell behind as often as it kept up one MOVE_DOWN_SHARE step down", () => {
    const results = resultsOf([round(58_200, 1), behindIn(58_200, 2)]);
    expect(kneeAfterRounds(results, "a", 58_200, 2, share)).toEqual({
      product: "a", afterRound: 2, from: 58_200, to: roundRate(58_200 * MOVE_DOWN_SHARE), keptUp: 1, fellBehind: 1, loadShare: share,
    });
    expect(verdictsAt(results.runs, 58_200, share)).toEqual({ keptUp: 1, fellBehind: 1 });
  });

  it("reads only the rounds at its share: a window at the knee beside it says nothing about the share's rate", () => {
    const results = resultsOf([round(58_200, 1), behind("a", 58_200, { round: 2, loadShare: 1 })]);
    expect(kneeAfterRounds(results, "a", 58_200, 2, share)).toBeUndefined();
  });

  it("does not count a noisy round against the rate", () => {
    const results = resultsOf([round(58_200, 1), noisy(behindIn(58_200, 2))]);
    expect(kneeAfterRounds(results, "a", 58_200, 2, share)).toBeUndefined();
  });

  it("says what happened in one sentence, naming the rounds' rate or, in older results, the knee", () => {
    const m = { product: "a", afterRound: 2, from: 58_200, to: 52_300, keptUp: 1, fellBehind: 1 };
    expect(moveSentence({ ...m, loadShare: share })).toBe(
      "After round 2 its rounds at 58,200/s had fallen behind in 1 and kept up in 1, so its rounds' rate moved to 52,300/s for its later rounds.",
    );
    expect(moveSentence(m)).toContain("so its knee moved to 52,300/s");
  });
});
