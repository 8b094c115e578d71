import { findKnee, roundRate } from "./knee.ts";
import { MAX_NOISY_REPEATS, SEARCH_RESOLUTION, START_SHARE, SWEEP_RESOLUTION } from "./constants.ts";
import type { BenchSpeed } from "./speed-wait.ts";
import type { DrainFigures, SearchOptions, StepOutcome, StepPurpose } from "./step.ts";

/** A product of capacity `capacity`: keeps up under 97 % of it at `micros` µs; a unit test's stand-in for the runs. */
const product = (capacity: number, micros = 10, speedIndex = 600_000) => (rate: number): StepOutcome =>
  rate <= capacity * 0.97
    ? { rate, offeredPerSec: rate, consumedPerSec: rate, regime: "keep-up", gendataShort: false, cpuMicrosPerInference: micros, speedIndex }
    : { rate, offeredPerSec: rate, consumedPerSec: capacity * 0.9, regime: "saturated", gendataShort: false, cpuMicrosPerInference: micros, speedIndex };

function recording(model: (rate: number, purpose: StepPurpose, n: number) => StepOutcome) {
  const calls: Array<{ rate: number; purpose: StepPurpose }> = [];
  const runAt = async (rate: number, purpose: StepPurpose) => {
    calls.push({ rate, purpose });
    return model(rate, purpose, calls.length);
  };
  return { runAt, calls };
}

const main: SearchOptions = { resolution: SEARCH_RESOLUTION, confirm: false, maxSteps: 10 };
const sweep: SearchOptions = { resolution: SWEEP_RESOLUTION, confirm: true, maxSteps: 16 };
const drain: DrainFigures = { ceiling: 50_000, gendataCap: 200_000 };

describe("the knee search", () => {
  it("main command: one keep-up just under a drain that bounds closes the bracket at the drain's bound", async () => {
    const { runAt, calls } = recording(product(52_000));
    const r = await findKnee(runAt, drain, main);
    expect(calls).toEqual([{ rate: 50_000 * START_SHARE, purpose: "paced" }]);
    expect(r.knee).toBe(45_000);
    expect(r.bracket).toEqual({ keptUp: 45_000, saturated: 52_500 });
    expect(r.confirmed).toBe(false);
    expect(r.stoppedBecause).toBe("drain ceiling 50000/s; the bracket 45000–52500/s is within 20 %.");
  });

  it("sweep: the same search at 10 %, then the knee's confirm", async () => {
    const { runAt, calls } = recording(product(52_000));
    const r = await findKnee(runAt, drain, sweep);
    expect(calls.map((c) => `${c.purpose} ${c.rate}`)).toEqual(["paced 45000", "paced 48800", "confirm 48800"]);
    expect(r.knee).toBe(48_800);
    expect(r.confirmed).toBe(true);
    expect(r.bracket).toEqual({ keptUp: 48_800, saturated: 52_500 });
  });

  it("a confirm that does not hold counts as saturated: the bracket goes on under it and confirms there", async () => {
    const { runAt, calls } = recording((rate, purpose) => product(purpose === "confirm" && rate === 48_800 ? 40_000 : 52_000)(rate));
    const r = await findKnee(runAt, drain, sweep);
    expect(calls.map((c) => `${c.purpose} ${c.rate}`)).toEqual(["paced 45000", "paced 48800", "confirm 48800", "confirm 45000"]);
    expect(r.knee).toBe(45_000);
    expect(r.confirmed).toBe(true);
    expect(r.bracket).toEqual({ keptUp: 45_000, saturated: 48_800 });
  });

  it("a product far under its drain comes down toward what it consumed, then bisects up", async () => {
    const { runAt } = recording(product(20_000));
    const r = await findKnee(runAt, drain, main);
    expect(r.knee).toBeDefined();
    expect(r.knee!).toBeLessThanOrEqual(20_000 * 0.97);
    expect(r.bracket!.saturated!).toBeLessThanOrEqual(r.knee! * (1 + SEARCH_RESOLUTION));
  });

  it("stops at its cap of runs, keeping the knee so far unconfirmed", async () => {
    const { runAt, calls } = recording(product(52_000));
    const r = await findKnee(runAt, drain, { ...sweep, maxSteps: 2 });
    expect(calls).toHaveLength(2);
    expect(r.knee).toBe(48_800);
    expect(r.confirmed).toBe(false);
    expect(r.stoppedBecause).toContain("the search hit its cap of 2 runs");
  });

  it("withdraws the knee when a run is invalid", async () => {
    const { runAt } = recording((rate, _p, n) => ({ ...product(52_000)(rate), ...(n === 2 ? { invalid: "lost 3" } : {}) }));
    const r = await findKnee(runAt, drain, sweep);
    expect(r.knee).toBeUndefined();
    expect(r.bracket).toBeUndefined();
    expect(r.stoppedBecause).toContain("no knee is reported for a product with an invalid run");
  });

  it("runs a noisy step again up to the bound, then stops", async () => {
    const { runAt, calls } = recording((rate) => ({ ...product(52_000)(rate), noisy: "steal 12%" }));
    const r = await findKnee(runAt, drain, main);
    expect(calls).toHaveLength(MAX_NOISY_REPEATS + 1);
    expect(r.knee).toBeUndefined();
    expect(r.stoppedBecause).toContain("the machine stayed noisy");
  });

  it("waits for a slower machine before a fallen run is run again, and notes it on the step", async () => {
    const waits: number[] = [];
    const speed: BenchSpeed = { usual: () => 600_000, wait: async (usual) => (waits.push(usual), "run again at once") };
    const { runAt } = recording((rate, _p, n) => (n === 1 ? product(30_000, 10, 400_000)(rate) : product(52_000)(rate)));
    const r = await findKnee(runAt, drain, main, speed);
    expect(waits).toEqual([600_000]);
    expect(r.steps[0]!.slower).toContain("−33%");
    expect(r.steps[0]!.rerun).toBe("run again at once");
    expect(r.knee).toBe(45_000);
  });

  it("a knee under an unreachable rate is only at least", async () => {
    const short = (rate: number): StepOutcome => ({ ...product(500_000)(rate), ...(rate > 46_000 ? { gendataShort: true, offeredPerSec: 46_000 } : {}) });
    const { runAt } = recording(short);
    const r = await findKnee(runAt, { ceiling: 50_000, gendataCap: 200_000, ceilingUnsettled: true }, sweep);
    expect(r.knee).toBeDefined();
    expect(r.bracket!.saturated).toBeUndefined();
    expect(r.stoppedBecause).toContain("so the knee is at least");
  });

  it("rounds rates to three significant figures, whole records/s", () => {
    expect(roundRate(48_765)).toBe(48_800);
    expect(roundRate(0.2)).toBe(1);
  });
});
