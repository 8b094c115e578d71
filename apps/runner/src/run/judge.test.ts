import type { Tick } from "../results/types.ts";
import { FOREIGN_CPU_LIMIT, invalidReasons, judgeConditions, SPEED_CHANGE_LIMIT, SPEED_DRIFT_LIMIT, STEAL_LIMIT } from "./judge.ts";

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

  it("a speed index that drifted past the bound, before or after, makes it noisy", () => {
    const slow = 120_500 * (1 - SPEED_DRIFT_LIMIT - 0.05);
    const c = judgeConditions(window(0, 0), { ...speed, after: slow });
    expect(c.noisy).toBe(true);
    expect(c.noisyBecause[0]).toMatch(new RegExp(`^speed index after the run ${Math.round(slow)} is -${Math.round((SPEED_DRIFT_LIMIT + 0.05) * 100)}% from the bench's 120500`));
    expect(judgeConditions(window(0, 0), { ...speed, before: 120_500 * (1 + SPEED_DRIFT_LIMIT / 2) }).noisy).toBe(false);
  });

  it("a machine that changed speed during the run makes it noisy, even within the bound of the bench's reading (quix at 5k/s, 2026-12-01)", () => {
    const c = judgeConditions(window(1, 0.1), { before: 243_392, after: 186_818, reference: 261_766 });
    expect(c.noisy).toBe(true);
    expect(c.noisyBecause).toEqual([`speed index moved -23% during the run (243392 → 186818, limit ±${SPEED_CHANGE_LIMIT * 100}%)`]);
    expect(judgeConditions(window(1, 0), { before: 186_067, after: 238_971, reference: 261_766 }).noisyBecause[0]).toMatch(/^speed index moved \+28% during the run/);
    expect(judgeConditions(window(1, 0), { before: 202_282, after: 201_353, reference: 261_766 }).noisy).toBe(false);
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
});
