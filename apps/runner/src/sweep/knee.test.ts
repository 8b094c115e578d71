import { COST_REPEAT_SPREAD, costsAgree, DEFAULT_SWEEP, MAX_STEPS, findKnee, roundRate } from "./knee.ts";
import type { StepOutcome, StepPurpose } from "./knee.ts";

/**
 * A synthetic product of capacity C fed by a gendata that tops out at G: keeps up while what it
 * is offered stays under C*0.97, otherwise saturated at C. `override` replaces chosen runs (by
 * call index) to model noise, warmup backlogs and crashes.
 */
function product(C: number, opts: { G?: number; override?: (call: number, rate: number, normal: StepOutcome) => StepOutcome | undefined } = {}) {
  const calls: Array<{ rate: number; purpose: StepPurpose }> = [];
  const runAt = async (rate: number, purpose: StepPurpose): Promise<StepOutcome> => {
    calls.push({ rate, purpose });
    const offered = Math.min(rate, opts.G ?? Number.POSITIVE_INFINITY);
    const gendataShort = offered < rate * 0.95;
    // When gendata is short the machine is busy with it: the product looks saturated below C,
    // which is exactly what must not be read as the product's limit.
    const normal: StepOutcome = gendataShort
      ? { rate, offeredPerSec: offered, consumedPerSec: offered * 0.8, regime: "saturated", gendataShort }
      : offered <= C * 0.97
        ? { rate, offeredPerSec: offered, consumedPerSec: offered, regime: "keep-up", gendataShort }
        : { rate, offeredPerSec: offered, consumedPerSec: C, regime: "saturated", gendataShort };
    return opts.override?.(calls.length - 1, rate, normal) ?? normal;
  };
  return { runAt, calls };
}

/** The bisection capped at two steps: the sequences of the tests that are about something else stay short. */
const TWO_REFINES = { ...DEFAULT_SWEEP, refineSteps: 2 };

describe("roundRate", () => {
  it("keeps 3 significant figures, whole", () => {
    expect(roundRate(27_512)).toBe(27_500);
    expect(roundRate(1_234_567)).toBe(1_230_000);
    expect(roundRate(0.2)).toBe(1);
  });
});

describe("findKnee", () => {
  it("bisects until the bracket is within the resolution, with the ceiling at capacity, confirmed", async () => {
    const C = 30_000;
    const { runAt, calls } = product(C);
    const r = await findKnee(runAt, DEFAULT_SWEEP);
    // climb 5k 10k 20k 40k(sat), refine 30k(sat) 25k 27.5k (30k is within 10 % of it), confirm 27.5k
    expect(calls.map((c) => c.rate)).toEqual([5000, 10_000, 20_000, 40_000, 30_000, 25_000, 27_500, 27_500]);
    expect(r.steps.map((s) => s.purpose)).toEqual(["climb", "climb", "climb", "climb", "refine", "refine", "refine", "confirm"]);
    expect(r.knee).toBeLessThanOrEqual(C * 0.97);
    expect(r.bracket).toEqual({ keptUp: 27_500, saturated: 30_000 });
    expect(r.bracket!.saturated!).toBeLessThanOrEqual(r.knee! * (1 + DEFAULT_SWEEP.resolution));
    expect(r.ceiling).toBeCloseTo(C, 6);
    expect(r.confirmed).toBe(true);
    expect(r.stoppedBecause).toMatch(/saturated at 30000\/s/);
    expect(r.stoppedBecause).toMatch(/27500\/s held on a repeat/);
  });

  it("bisects below a rate gendata falls short of and never takes that as the product's limit", async () => {
    const C = 100_000;
    const G = 30_000;
    const { runAt, calls } = product(C, { G });
    const r = await findKnee(runAt, TWO_REFINES);
    // climb 5k 10k 20k 40k(short), refine 30k (reached) 35k(short), confirm 30k
    expect(calls.map((c) => c.rate)).toEqual([5000, 10_000, 20_000, 40_000, 30_000, 35_000, 30_000]);
    expect(r.knee).toBe(30_000);
    expect(r.knee).toBeLessThanOrEqual(G);
    expect(r.ceiling).toBeUndefined();
    expect(r.stoppedBecause).toMatch(/gendata could not reach 35000\/s/);
    expect(r.stoppedBecause).toMatch(/at least 30000\/s/);
    expect(r.stoppedBecause).not.toMatch(/saturated/);
    expect(r.confirmed).toBe(true);
  });

  it("a step gendata falls short of is not repeated for noise (seen: flink at 160k, short and noisy three times)", async () => {
    const { runAt, calls } = product(200_000, {
      G: 120_000,
      override: (_call, rate, normal) =>
        rate === 160_000 ? { ...normal, noisy: "speed index after the run 276732 is 56% from the bench's 177961 (limit ±35%)" } : undefined,
    });
    const r = await findKnee(runAt, { ...DEFAULT_SWEEP, refineSteps: 0 });
    expect(calls.filter((c) => c.rate === 160_000)).toHaveLength(1);
    expect(calls.map((c) => c.rate)).toEqual([5000, 10_000, 20_000, 40_000, 80_000, 160_000, 80_000]);
    expect(r.knee).toBe(80_000);
    expect(r.confirmed).toBe(true);
    expect(r.stoppedBecause).toMatch(/gendata could not reach 160000\/s.*at least 80000\/s.*held on a repeat/);
  });

  it("gendata short at the very first rate stops with that reason and no knee", async () => {
    const { runAt, calls } = product(100_000, { G: 1000 });
    const r = await findKnee(runAt, TWO_REFINES);
    expect(calls.map((c) => c.rate)).toEqual([5000]);
    expect(r.knee).toBeUndefined();
    expect(r.stoppedBecause).toMatch(/gendata could not reach 5000\/s/);
  });

  it("an interrupted bench stops the sweep without blaming the product", async () => {
    const { runAt } = product(30_000, {
      override: (_call, rate, normal) => (rate === 40_000 ? { ...normal, regime: "saturated", interrupted: "interrupted by SIGTERM" } : undefined),
    });
    const r = await findKnee(runAt, TWO_REFINES);
    expect(r.steps.map((s) => s.rate)).toEqual([5000, 10_000, 20_000, 40_000]);
    expect(r.knee).toBe(20_000);
    expect(r.confirmed).toBe(false);
    expect(r.ceiling).toBeUndefined();
    expect(r.stoppedBecause).toMatch(/the bench was interrupted by SIGTERM during the run at 40000\/s.*not confirmed \(the bench was interrupted\)/);
    expect(r.stoppedBecause).not.toMatch(/failed/);
  });

  it("a lucky keep-up above capacity is rejected by the confirm repeat, and the knee steps down", async () => {
    const C = 30_000;
    const { runAt, calls } = product(C, {
      override: (call, rate, normal) =>
        call === 3 && rate === 40_000 ? { ...normal, consumedPerSec: rate, regime: "keep-up" } : undefined,
    });
    const r = await findKnee(runAt, TWO_REFINES);
    // climb to 80k(sat), refine 60k 50k (sat), confirm 40k (sat now): bisect from the keep-up
    // at 20k to 40k, 30k(sat) 25k, and confirm 25k (holds)
    expect(calls.map((c) => c.rate)).toEqual([5000, 10_000, 20_000, 40_000, 80_000, 60_000, 50_000, 40_000, 30_000, 25_000, 25_000]);
    expect(r.steps.slice(-3).map((s) => s.purpose)).toEqual(["refine", "refine", "confirm"]);
    expect(r.knee).toBe(25_000);
    expect(r.bracket).toEqual({ keptUp: 25_000, saturated: 30_000 });
    expect(r.knee).toBeLessThan(C);
    expect(r.confirmed).toBe(true);
    expect(r.ceiling).toBe(C);
    expect(r.stoppedBecause).toMatch(/40000\/s did not hold on a repeat, 25000\/s did/);
  });

  it("gives up confirming after two step-downs", async () => {
    // Every repeat at a rate it kept up with before comes back saturated.
    const seen = new Set<number>();
    const { runAt, calls } = product(30_000, {
      override: (_call, rate, normal) => {
        const again = seen.has(rate);
        seen.add(rate);
        return again ? { ...normal, consumedPerSec: rate * 0.5, regime: "saturated" } : undefined;
      },
    });
    const r = await findKnee(runAt, TWO_REFINES);
    // 25k fails its confirm; bisecting 20k–25k keeps up at 22.5k and 23.8k, which fails; 22.5k (within 10 % of it) fails
    expect(calls.filter((c) => c.purpose === "confirm").map((c) => c.rate)).toEqual([25_000, 23_800, 22_500]);
    expect(r.confirmed).toBe(false);
    expect(r.stoppedBecause).toMatch(/no knee held on a repeat \(tried 25000\/s, 23800\/s, 22500\/s\)/);
  });

  it("repeats a draining first run instead of taking it as keep-up", async () => {
    const { runAt, calls } = product(30_000, {
      override: (call, rate) =>
        call === 0 ? { rate, offeredPerSec: rate, consumedPerSec: rate * 1.5, regime: "draining", gendataShort: false } : undefined,
    });
    const r = await findKnee(runAt, TWO_REFINES);
    expect(calls.slice(0, 3).map((c) => c.rate)).toEqual([5000, 5000, 10_000]);
    expect(r.steps[0]?.regime).toBe("draining");
    expect(r.steps[1]?.regime).toBe("keep-up");
    expect(r.knee).toBe(25_000);
    expect(r.confirmed).toBe(true);
  });

  it("draining twice is never keep-up, even when it caught up with the asked rate", async () => {
    // The old rule took "drained twice and consumed >= rate" as keep-up, and the row shown was
    // that draining run (catch-up CPU). A rate is sustained only by a settled keep-up run.
    const { runAt, calls } = product(30_000, {
      override: (_call, rate) =>
        rate === 10_000 ? { rate, offeredPerSec: 10_000, consumedPerSec: 11_000, regime: "draining", gendataShort: false } : undefined,
    });
    const r = await findKnee(runAt, TWO_REFINES);
    expect(calls.slice(0, 3).map((c) => c.rate)).toEqual([5000, 10_000, 10_000]);
    expect(calls[3]?.purpose).toBe("refine"); // 10k counted as not sustained
    expect(r.knee).toBeLessThan(10_000);
  });

  it("an unsettled keep-up is run again and, unsettled twice, is not sustained", async () => {
    const { runAt, calls } = product(30_000, {
      override: (_call, rate, normal) => (rate === 20_000 ? { ...normal, unsettled: true } : undefined),
    });
    const r = await findKnee(runAt, TWO_REFINES);
    expect(calls.slice(0, 4).map((c) => c.rate)).toEqual([5000, 10_000, 20_000, 20_000]);
    expect(r.knee).toBeLessThan(20_000);
    expect(r.confirmed).toBe(true);
  });

  it("a noisy step is run again, and a noisy run is never the knee", async () => {
    // The first run at 25k (the knee) and its first confirm are noisy: both are repeated.
    let noisyLeft = 2;
    const { runAt, calls } = product(30_000, {
      override: (_call, rate, normal) => (rate === 25_000 && noisyLeft-- > 0 ? { ...normal, noisy: "foreign load 35.0% of a core (limit 10%)" } : undefined),
    });
    const r = await findKnee(runAt, TWO_REFINES);
    const at25k = r.steps.filter((s) => s.rate === 25_000);
    expect(at25k.map((s) => s.noisy !== undefined)).toEqual([true, true, false, false]);
    expect(calls.length).toBe(r.steps.length);
    expect(r.knee).toBe(25_000);
    expect(r.confirmed).toBe(true);
  });

  it("a machine that stays noisy stops the sweep without a confirmed knee", async () => {
    const { runAt } = product(30_000, {
      override: (_call, rate, normal) => (rate >= 20_000 ? { ...normal, noisy: "steal 12.0% of a core (limit 5%)" } : undefined),
    });
    const r = await findKnee(runAt, TWO_REFINES);
    expect(r.steps.filter((s) => s.rate === 20_000)).toHaveLength(3); // first try + MAX_NOISY_REPEATS
    expect(r.stoppedBecause).toMatch(/the machine stayed noisy at 20000\/s over 3 runs/);
    expect(r.confirmed).toBe(false);
    expect(r.ceiling).toBeUndefined();
  });

  it("an invalid run stops the sweep and withdraws the knee", async () => {
    const { runAt, calls } = product(30_000, {
      override: (_call, rate, normal) => (rate === 20_000 ? { ...normal, invalid: "lost 94 of 400256 records" } : undefined),
    });
    const r = await findKnee(runAt, TWO_REFINES);
    expect(calls.map((c) => c.rate)).toEqual([5000, 10_000, 20_000]);
    expect(r.knee).toBeUndefined();
    expect(r.confirmed).toBe(false);
    expect(r.stoppedBecause).toMatch(/the run at 20000\/s was invalid: lost 94 of 400256 records.*no knee is reported/);

    // Invalid on the confirm repeat: no knee either.
    const late = product(30_000, {
      override: (_call, rate, normal) =>
        rate === 25_000 && late.calls.filter((c) => c.purpose === "confirm").length > 0
          ? { ...normal, invalid: "mis-scored 3 of 20000 checked" }
          : undefined,
    });
    const r2 = await findKnee(late.runAt, TWO_REFINES);
    expect(r2.knee).toBeUndefined();
    expect(r2.steps.at(-1)?.invalid).toBe("mis-scored 3 of 20000 checked");
  });

  it("a failed run stops the sweep and keeps the steps so far", async () => {
    const { runAt, calls } = product(30_000, {
      override: (_call, rate, normal) => (rate === 20_000 ? { ...normal, failed: "product exited with code 137" } : undefined),
    });
    const r = await findKnee(runAt, TWO_REFINES);
    expect(calls.map((c) => c.rate)).toEqual([5000, 10_000, 20_000]);
    expect(r.steps).toHaveLength(3);
    expect(r.steps[2]?.failed).toBe("product exited with code 137");
    expect(r.stoppedBecause).toMatch(/the run at 20000\/s failed: product exited with code 137/);
    expect(r.confirmed).toBe(false);
    expect(r.ceiling).toBeUndefined();
  });

  it("never runs more than the step cap", async () => {
    const { runAt, calls } = product(Number.POSITIVE_INFINITY);
    const r = await findKnee(runAt, { ...DEFAULT_SWEEP, factor: 1.5, maxRate: 1e12 });
    expect(calls).toHaveLength(MAX_STEPS);
    expect(r.steps).toHaveLength(MAX_STEPS);
    expect(r.stoppedBecause).toMatch(/cap of 20 runs/);
    expect(r.confirmed).toBe(false);

    // A product that drains forever cannot keep the sweep going either.
    const endless = product(30_000, {
      override: (_call, rate) => ({ rate, offeredPerSec: rate, consumedPerSec: rate * 2, regime: "draining", gendataShort: false }),
    });
    const r2 = await findKnee(endless.runAt, { ...DEFAULT_SWEEP, maxRate: 1e12 });
    expect(endless.calls.length).toBeLessThanOrEqual(MAX_STEPS);
    expect(r2.stoppedBecause).toMatch(/cap of 20 runs/);
  });

  it("stops at maxRate when the product keeps up everywhere", async () => {
    const { runAt, calls } = product(1e9);
    const r = await findKnee(runAt, { ...DEFAULT_SWEEP, maxRate: 30_000 });
    expect(calls.map((c) => c.rate)).toEqual([5000, 10_000, 20_000, 30_000, 30_000]);
    expect(r.knee).toBe(30_000);
    expect(r.confirmed).toBe(true);
    expect(r.stoppedBecause).toMatch(/maximum of 30000\/s; the knee is at least 30000\/s/);
  });

  it("comes down from a saturated first rate", async () => {
    const { runAt, calls } = product(3000);
    const r = await findKnee(runAt, TWO_REFINES);
    // 5k(sat), 2.5k(keep), refine 3.75k(sat) 3.13k(sat), confirm 2.5k
    expect(calls.map((c) => c.rate)).toEqual([5000, 2500, 3750, 3130, 2500]);
    expect(r.knee).toBe(2500);
    expect(r.ceiling).toBe(3000);
    expect(r.confirmed).toBe(true);
  });
});

describe("a knee's repeat must agree in cost", () => {
  const withCost = (micros: (call: number) => number) => (call: number, _rate: number, normal: StepOutcome): StepOutcome =>
    normal.regime === "keep-up" ? { ...normal, cpuMicrosPerInference: micros(call) } : normal;

  it("costs agree when the closest pair is within the spread", () => {
    expect(costsAgree([])).toBe(true);
    expect(costsAgree([10])).toBe(true);
    expect(costsAgree([10, 10 * (1 + COST_REPEAT_SPREAD) - 0.01])).toBe(true);
    expect(costsAgree([10, 12])).toBe(false);
    expect(costsAgree([10, 15, 14.5])).toBe(true);
  });

  it("a repeat that keeps up at the same cost confirms the knee, and the note gives both costs", async () => {
    const { runAt } = product(30_000, { override: withCost(() => 20) });
    const r = await findKnee(runAt, TWO_REFINES);
    expect(r.confirmed).toBe(true);
    expect(r.stoppedBecause).toContain("25000/s held on a repeat at 20.0 / 20.0 µs per inference");
  });

  it("a repeat at another cost gets one more run; a third that agrees with one of them confirms", async () => {
    // Calls: climb 5k 10k 20k 40k, refine 30k 25k, confirm 25k (index 6: 30 µs), again (index 7: 20.5 µs).
    const { runAt, calls } = product(30_000, { override: withCost((call) => (call === 6 ? 30 : 20)) });
    const r = await findKnee(runAt, TWO_REFINES);
    expect(calls.filter((c) => c.purpose === "confirm").map((c) => c.rate)).toEqual([25_000, 25_000]);
    expect(r.confirmed).toBe(true);
    expect(r.knee).toBe(25_000);
  });

  it("a cost that never repeats leaves the knee unconfirmed, with the costs named", async () => {
    const { runAt } = product(30_000, { override: withCost((call) => (call === 5 ? 20 : call === 6 ? 30 : 40)) });
    const r = await findKnee(runAt, TWO_REFINES);
    expect(r.confirmed).toBe(false);
    expect(r.knee).toBe(25_000);
    expect(r.stoppedBecause).toContain("25000/s kept up on its repeats but its cost did not repeat (20.0 / 30.0 / 40.0 µs per inference");
  });
});

describe("a knee whose repeat gendata cannot offer", () => {
  it("bisects from the highest lower keep-up rate toward it and confirms there, saying why", async () => {
    // Keeps up to 140k; gendata delivers the asked rate except on the confirm at 140k (short: 119k).
    const { runAt, calls } = product(1_000_000, {
      override: (_call, rate, normal) => {
        const confirmsAt140k = calls.filter((c) => c.purpose === "confirm" && c.rate === 140_000).length;
        return rate === 140_000 && calls[calls.length - 1]!.purpose === "confirm" && confirmsAt140k === 1
          ? { rate, offeredPerSec: 119_000, consumedPerSec: 117_000, regime: "saturated", gendataShort: true }
          : normal;
      },
    });
    const r = await findKnee(runAt, { ...DEFAULT_SWEEP, startRate: 20_000, maxRate: 140_000 });
    // 80k kept up in the climb: bisect 80k–140k (110k, 125k, 133k) and confirm 133k
    expect(calls.filter((c) => c.purpose === "refine").map((c) => c.rate)).toEqual([110_000, 125_000, 133_000]);
    expect(calls.filter((c) => c.purpose === "confirm").map((c) => c.rate)).toEqual([140_000, 133_000]);
    expect(r.confirmed).toBe(true);
    expect(r.knee).toBe(133_000);
    expect(r.stoppedBecause).toContain("140000/s (gendata short on the repeat) did not hold on a repeat, 133000/s did");
  });
});

