import { countingRun, resultsOf } from "../page/__fixtures__/counting-run.ts";
import type { RunResult } from "../results/types.ts";
import { fellBehind, kneeAfterRounds, moveSentence, verdictsAt } from "./knee-moves.ts";

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
  const search = [countingRun("a", 76_700, 13, { sweepPurpose: "paced" }), countingRun("a", 83_100, 12, { sweepPurpose: "paced", round: 1 })];

  it("holds the knee while the row kept up there in more rounds than it fell behind in", () => {
    const results = resultsOf([...search, countingRun("a", 83_100, 12, { round: 2 }), behind("a", 83_100, { round: 3 })]);
    expect(kneeAfterRounds(results, "a", 83_100, 3)).toBeUndefined();
  });

  it("moves a row that fell behind as often as it kept up to the highest lower rate it kept up at", () => {
    const results = resultsOf([...search, behind("a", 83_100, { round: 2 })]);
    expect(kneeAfterRounds(results, "a", 83_100, 2)).toEqual({ product: "a", afterRound: 2, from: 83_100, to: 76_700, keptUp: 1, fellBehind: 1 });
    expect(verdictsAt(results.runs, 83_100)).toEqual({ keptUp: 1, fellBehind: 1 });
  });

  it("skips a lower rate the row also fell behind at, and steps 5 % down when none is left", () => {
    const results = resultsOf([...search, behind("a", 83_100, { round: 2 }), behind("a", 76_700, { round: 3 })]);
    expect(kneeAfterRounds(results, "a", 76_700, 3)?.to).toBe(72_900);
  });

  it("does not count a noisy round against the rate", () => {
    const results = resultsOf([...search, noisy(behind("a", 83_100, { round: 2 }))]);
    expect(kneeAfterRounds(results, "a", 83_100, 3)).toBeUndefined();
  });

  it("says what happened in one sentence", () => {
    const sentence = moveSentence({ product: "a", afterRound: 2, from: 83_100, to: 76_700, keptUp: 1, fellBehind: 1 });
    expect(sentence).toBe(
      "After round 2 its rounds at 83,100/s had fallen behind in 1 and kept up in 1, " +
        "so its knee moved to 76,700/s for its later rounds.",
    );
  });
});
