import type { Tick } from "../results/types.ts";
import { FOREIGN_CPU_LIMIT, invalidReasons, judgeConditions, STEAL_LIMIT } from "./judge.ts";
import { SPEED_INDEX_VERSION } from "./speed-index.ts";

const window = (foreign: number, steal: number): Tick[] =>
  Array.from({ length: 20 }, (_, t) => ({
    t, phase: "window" as const, inputEnd: 0, consumed: 0, outputEnd: 0, cpuPercent: 50, memMb: 100, processes: 1, instrument: "pss" as const,
    foreignCpuPercent: foreign + (t % 2 === 0 ? 2 : -2), stealPercent: steal,
  }));
const speed = { before: 120_000, after: 121_000, reference: 120_500 };

describe("run conditions", () => {
  it("a quiet run is not noisy", () => {
    const c = judgeConditions(window(1, 0), speed);
    expect(c).toMatchObject({ noisy: false, noisyBecause: [], foreignCpuAvg: 1, foreignCpuMax: 3, stealAvg: 0 });
  });

  it("foreign load over the limit makes it noisy, with the figure", () => {
    const c = judgeConditions(window(FOREIGN_CPU_LIMIT + 20, 0), speed);
    expect(c.noisy).toBe(true);
    expect(c.noisyBecause).toEqual([`foreign load 30.0% of a core (limit ${FOREIGN_CPU_LIMIT}%)`]);
  });

  it("steal over the limit makes it noisy", () => {
    expect(judgeConditions(window(0, STEAL_LIMIT + 1), speed).noisyBecause[0]).toMatch(/^steal 6\.0% of a core/);
  });

  it("a speed reading alone never makes a quiet run noisy; it is recorded with its version", () => {
    // A second machine: the old index read 271k-517k within one quiet sweep while
    // each product's cost held; and quix at 5k/s on the first machine (243k before, 187k after).
    for (const readings of [{ before: 517_000, after: 271_000, reference: 372_024 }, { before: 243_392, after: 186_818, reference: 261_766 }]) {
      const c = judgeConditions(window(1, 0.1), readings);
      expect(c.noisy).toBe(false);
      expect(c).toMatchObject({ speedIndexBefore: readings.before, speedIndexAfter: readings.after, speedIndexVersion: SPEED_INDEX_VERSION });
    }
    expect(judgeConditions(window(1, 0), { ...speed, version: 1 }).speedIndexVersion).toBe(1);
  });
});

describe("invalid runs", () => {
  const passed = { passed: true, checked: 256, maxError: 0 };
  const delivery = { produced: 1000, distinctOutputs: 1000, lost: 0, duplicated: 0, scoresChecked: 500, misScored: 0, maxScoreError: 1e-7 };

  it("a run that did the work has no reason", () => {
    expect(invalidReasons({ verification: passed, delivery, undrained: 0, drainTimeoutSec: 60 })).toEqual([]);
  });

  it("names each way a run did not do the work", () => {
    const reasons = invalidReasons({
      verification: { passed: false, checked: 3, maxError: 0.5, problem: "largest risk error 0.5" },
      delivery: { ...delivery, lost: 94, distinctOutputs: 906, misScored: 12, maxScoreError: 0.5 },
      undrained: 4000,
      drainTimeoutSec: 60,
    });
    expect(reasons).toEqual([
      "verification failed: largest risk error 0.5",
      "backlog of 4000 records not drained within 60 s",
      "lost 94 of 1000 records",
      "mis-scored 12 of 500 checked (largest error 5.0e-1)",
    ]);
  });

  it("a duplicate read-committed makes an exactly-once run invalid; at-least-once, it is the claim kept", () => {
    const twice = { ...delivery, duplicated: 3 };
    expect(invalidReasons({ verification: passed, delivery: twice, undrained: 0, drainTimeoutSec: 60, guarantee: "exactly-once" }))
      .toEqual(["3 duplicates read-committed under exactly-once"]);
    expect(invalidReasons({ verification: passed, delivery: twice, undrained: 0, drainTimeoutSec: 60, guarantee: "at-least-once" })).toEqual([]);
  });
});
