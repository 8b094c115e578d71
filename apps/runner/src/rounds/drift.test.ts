import { countingRun, resultsOf } from "../page/__fixtures__/counting-run.ts";
import type { RunResult } from "../results/types.ts";
import { SPEED_INDEX_VERSION } from "../run/speed-index.ts";
import { driftChoice, driftCorrected, sittingSpeed } from "./drift.ts";
import { standings, roundsDrift } from "./standing.ts";

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

describe("driftChoice", () => {
  it("takes the rounds to the median speed when that brings each row's rounds closer together", () => {
    // The host stepped 20 % faster for round 2, and both rows' cost followed it.
    const rows = [
      [{ raw: 12, corrected: 10 }, { raw: 10, corrected: 10.1 }, { raw: 12.1, corrected: 10 }],
      [{ raw: 24, corrected: 20 }, { raw: 20, corrected: 19.9 }, { raw: 24, corrected: 20 }],
    ];
    const choice = driftChoice(rows);
    expect(choice.corrected).toBe(true);
    expect(choice.spreadCorrected!).toBeLessThan(choice.spreadRaw!);
  });

  it("keeps the raw figures when the index swung by itself and scaling by it spreads rounds that agreed", () => {
    const rows = [
      [{ raw: 9.67, corrected: 8.2 }, { raw: 9.54, corrected: 10.2 }, { raw: 9.63, corrected: 10.3 }],
      [{ raw: 19.9, corrected: 21.1 }, { raw: 19.3, corrected: 15.9 }, { raw: 22.9, corrected: 13.4 }],
    ];
    const choice = driftChoice(rows);
    expect(choice.corrected).toBe(false);
    expect(choice.spreadRaw!).toBeLessThan(choice.spreadCorrected!);
  });

  it("keeps the correction, untested, when no row has two rounds", () => {
    expect(driftChoice([[{ raw: 10, corrected: 9 }]])).toEqual({ corrected: true });
    expect(driftChoice([])).toEqual({ corrected: true });
  });

  it("is what the standings rank by: raw where the index swung by itself", () => {
    // Row "row": the same cost in three rounds while the index read 400k, 300k, 200k.
    const results = resultsOf([at(10, 400_000, 1), at(10, 300_000, 2), at(10.1, 200_000, 3)]);
    expect(roundsDrift(results).corrected).toBe(false);
    expect([...standings(results).rows[0]!.byRound.values()]).toEqual([10, 10, 10.1]);
  });
});
