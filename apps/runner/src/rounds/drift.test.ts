import { countingRun, resultsOf } from "../page/__fixtures__/counting-run.ts";
import type { RunResult } from "../results/types.ts";
import { SPEED_INDEX_VERSION } from "../run/speed-index.ts";
import { driftCorrected, sittingSpeed } from "./drift.ts";

/** A counting run whose speed index read `speed` before and after it. */
const at = (micros: number, speed: number, round = 1): RunResult => {
  const run = countingRun("row", 10_000, micros, { round });
  return { ...run, conditions: { ...run.conditions!, speedIndexBefore: speed, speedIndexAfter: speed, speedIndexVersion: SPEED_INDEX_VERSION } };
};

describe("sittingSpeed", () => {
  it("is the median speed index over the runs that have a reading of the current version", () => {
    const older = countingRun("row", 10_000, 10);
    expect(sittingSpeed(resultsOf([at(10, 500_000), at(10, 600_000), at(10, 700_000), older]))).toBe(600_000);
    expect(sittingSpeed(resultsOf([older]))).toBeUndefined();
  });
});

describe("driftCorrected", () => {
  it("scales a run's µs by its speed over the sitting's: a faster phase counts dearer, a slower one cheaper", () => {
    expect(driftCorrected(at(10, 660_000), 600_000)).toBeCloseTo(11, 10);
    expect(driftCorrected(at(10, 540_000), 600_000)).toBeCloseTo(9, 10);
    expect(driftCorrected(at(10, 600_000), 600_000)).toBe(10);
  });

  it("keeps the raw figure for a run without a reading or a sitting without any", () => {
    expect(driftCorrected(countingRun("row", 10_000, 10), 600_000)).toBe(10);
    expect(driftCorrected(at(10, 660_000), undefined)).toBe(10);
  });

  it("brings together two rounds of one cost taken on either side of a step in the host's speed", () => {
    const results = resultsOf([at(12, 500_000, 1), at(10, 600_000, 2), at(10, 600_000, 3)]);
    const sitting = sittingSpeed(results);
    expect(results.runs.map((r) => driftCorrected(r, sitting))).toEqual([10, 10, 10]);
  });
});
