import {
  DOWN_SHARE,
  DRAIN_BOUND_MARGIN,
  findKneeFromCeiling,
  type FastKneeOptions,
  firstPacedRate,
  MAX_FAST_STEPS,
  nextRateDown,
  ROUNDS_RESOLUTION,
  START_SHARE,
} from "./fast-knee.ts";
import { KNEE_RESOLUTION, roundRate, type StepOutcome, type StepPurpose } from "./knee.ts";

/**
 * A synthetic product that keeps up while offered at most K, else saturates consuming C; gendata
 * tops out at G beside it. `override` replaces chosen runs (by call index) to model noise,
 * warm-up backlogs, crashes and bad outputs.
 */
function product(
  K: number,
  C: number,
  opts: { G?: number; cost?: (call: number) => number; override?: (call: number, rate: number, normal: StepOutcome) => StepOutcome | undefined } = {},
) {
  const calls: Array<{ rate: number; purpose: StepPurpose }> = [];
  const runAt = async (rate: number, purpose: StepPurpose): Promise<StepOutcome> => {
    calls.push({ rate, purpose });
    const call = calls.length - 1;
    const offered = Math.min(rate, opts.G ?? Number.POSITIVE_INFINITY);
    const gendataShort = offered < rate * 0.95;
    const cpuMicrosPerInference = opts.cost?.(call) ?? 10;
    const normal: StepOutcome = gendataShort
      ? { rate, offeredPerSec: offered, consumedPerSec: offered * 0.9, regime: "saturated", gendataShort }
      : offered <= K
        ? { rate, offeredPerSec: offered, consumedPerSec: offered, regime: "keep-up", gendataShort, cpuMicrosPerInference }
        : { rate, offeredPerSec: offered, consumedPerSec: C, regime: "saturated", gendataShort };
    return opts.override?.(call, rate, normal) ?? normal;
  };
  return { runAt, calls };
}

describe("firstPacedRate", () => {
  it("starts just under the ceiling, unless gendata cannot offer that beside the product", () => {
    expect(firstPacedRate({ ceiling: 100_000, gendataCap: 160_000 })).toEqual({ rate: roundRate(100_000 * START_SHARE), byGendata: false });
    expect(firstPacedRate({ ceiling: 300_000, gendataCap: 160_000 })).toEqual({ rate: 160_000, byGendata: true });
  });

  it("is gendata's bound when the product read as fast as gendata wrote (no backlog to drain)", () => {
    expect(firstPacedRate({ ceiling: 180_000, gendataCap: 162_000, ceilingByGendata: true })).toEqual({ rate: 162_000, byGendata: true });
    // gendata's ceiling under its paced cap: never above what it reached
    expect(firstPacedRate({ ceiling: 150_000, gendataCap: 162_000, ceilingByGendata: true })).toEqual({ rate: 150_000, byGendata: true });
  });
});

describe("nextRateDown", () => {
  it("moves halfway toward what a saturated step consumed, and is always lower", () => {
    expect(nextRateDown({ rate: 90_000, consumedPerSec: 70_000, offeredPerSec: 90_000, gendataShort: false })).toBe(80_000);
    // barely saturated: at least a DOWN_SHARE step
    expect(nextRateDown({ rate: 90_000, consumedPerSec: 88_000, offeredPerSec: 90_000, gendataShort: false })).toBe(roundRate(90_000 * DOWN_SHARE));
    // consumed above the rate (a barely saturated step with a late commit): a step down all the same
    expect(nextRateDown({ rate: 90_000, consumedPerSec: 95_000, offeredPerSec: 90_000, gendataShort: false })).toBe(roundRate(90_000 * DOWN_SHARE));
    // gendata short: toward what it offered, not what the product consumed of it
    expect(nextRateDown({ rate: 200_000, consumedPerSec: 100_000, offeredPerSec: 150_000, gendataShort: true })).toBe(roundRate(150_000 * DOWN_SHARE));
  });
});

/** gendata's cap at the first paced rate: no room above it to bisect, for the tests that are about something else. */
/**
 * The searches below are laid out from a first paced step at 0.85 of the ceiling, which keeps
 * their rates apart; the default start is tested on its own (firstPacedRate).
 */
const fromCeiling = (runAt: Parameters<typeof findKneeFromCeiling>[0], opts: FastKneeOptions): ReturnType<typeof findKneeFromCeiling> =>
  findKneeFromCeiling(runAt, { startShare: 0.85, ...opts });

const NO_BISECT_CAP = 85_000;

describe("findKneeFromCeiling", () => {
  it("bisects toward the drain ceiling plus its margin when the first paced step keeps up, then confirms", async () => {
    // The drain read 100k; the product keeps up to 99k.
    const { runAt, calls } = product(99_000, 98_000);
    const r = await fromCeiling(runAt, { ceiling: 100_000, gendataCap: 160_000 });
    // 85k keeps up; the bound is 105k (DRAIN_BOUND_MARGIN): 95k keeps up, 100k saturates, and 95k is within 10 % of it
    expect(calls).toEqual([
      { rate: 85_000, purpose: "paced" },
      { rate: 95_000, purpose: "paced" },
      { rate: 100_000, purpose: "paced" },
      { rate: 95_000, purpose: "confirm" },
    ]);
    expect(r.knee).toBe(95_000);
    expect(r.confirmed).toBe(true);
    expect(r.ceiling).toBe(100_000);
    expect(r.bracket).toEqual({ keptUp: 95_000, saturated: 100_000 });
    expect(r.stoppedBecause).toMatch(/^drain ceiling 100000\/s; 95000\/s kept up and held on a repeat at 10\.0 \/ 10\.0 µs/);
  });

  it("leaves the confirm to the rounds when told to: the same bracket, no repeat at the knee", async () => {
    const { runAt, calls } = product(99_000, 98_000);
    const r = await fromCeiling(runAt, { ceiling: 100_000, gendataCap: 160_000, confirm: false });
    expect(calls.map((c) => c.purpose)).toEqual(["paced", "paced", "paced"]);
    expect(r.knee).toBe(95_000);
    expect(r.confirmed).toBe(false);
    expect(r.bracket).toEqual({ keptUp: 95_000, saturated: 100_000 });
    expect(r.stoppedBecause).toContain("95000/s kept up; the rounds run it again");
  });

  it("at the rounds' resolution, ends at a first keep-up within a fifth of the drain's bound, bracketed by it", async () => {
    const { runAt, calls } = product(99_000, 98_000);
    const r = await findKneeFromCeiling(runAt, { ceiling: 100_000, gendataCap: 160_000, confirm: false, resolution: ROUNDS_RESOLUTION });
    // 90k keeps up, and the bound (105k, DRAIN_BOUND_MARGIN) is within 20 % of it
    expect(calls).toEqual([{ rate: 100_000 * START_SHARE, purpose: "paced" }]);
    expect(r.knee).toBe(90_000);
    expect(r.bracket).toEqual({ keptUp: 90_000, saturated: 105_000 });
  });

  it("steps up by the resolution past a drain it kept up at, until a paced step saturates (the drain read low)", async () => {
    // The drain read 100k; paced, the product keeps up to 102k: the drain read low.
    const near = product(102_000, 100_000);
    const r = await fromCeiling(near.runAt, { ceiling: 100_000, gendataCap: 160_000 });
    expect(near.calls.map((c) => `${c.purpose} ${c.rate}`)).toEqual(["paced 85000", "paced 95000", "paced 100000", "paced 110000", "confirm 100000"]);
    expect(r.knee).toBe(100_000);
    expect(r.bracket).toEqual({ keptUp: 100_000, saturated: 110_000 }); // a paced saturation, not the drain's bound
    expect(r.stoppedBecause).toMatch(/the drain read its ceiling low and did not bound the search/);
    expect(r.stoppedBecause).not.toMatch(/at least/);
    // flink's JVM still warming in its drain (67,234/s); paced it keeps up far above it.
    const far = product(104_000, 100_000);
    const f = await fromCeiling(far.runAt, { ceiling: 67_234, gendataCap: 160_000 });
    expect(f.knee).toBeGreaterThan(104_000 / (1 + KNEE_RESOLUTION));
    expect(f.knee).toBeLessThanOrEqual(104_000);
    expect(f.confirmed).toBe(true);
    expect(f.bracket!.saturated!).toBeLessThanOrEqual(f.knee! * (1 + KNEE_RESOLUTION));
    expect(far.calls.length).toBeLessThanOrEqual(MAX_FAST_STEPS);
    // A climb the cap of runs cuts short gives the highest rate that kept up, not confirmed.
    const long = product(100_000, 95_000);
    const l = await fromCeiling(long.runAt, { ceiling: 10_000, gendataCap: 1_000_000 });
    expect(long.calls).toHaveLength(MAX_FAST_STEPS);
    expect(l.knee).toBe(long.calls[MAX_FAST_STEPS - 1]!.rate);
    expect(l.confirmed).toBe(false);
    expect(l.stoppedBecause).toMatch(/kept up but was not confirmed: .*cap of 10 runs/);
    // Past the drain, gendata's cap within the resolution ends the climb: the knee is at least that.
    const capped = await fromCeiling(product(200_000, 190_000).runAt, { ceiling: 100_000, gendataCap: 115_000 });
    expect(capped.knee).toBe(110_000);
    expect(capped.bracket).toEqual({ keptUp: 110_000 });
    expect(capped.stoppedBecause).toMatch(/the knee is at least 110000\/s/);
  });

  it("reads a drain the machine was slower for at the keep-up's speed, so it does not hold the knee under it (a drain in a slow minute)", async () => {
    const atSpeed = (speedIndex: number) => ({ override: (_call: number, _rate: number, normal: StepOutcome) => ({ ...normal, speedIndex }) });
    // Drained at 32,700/s while the machine read 500k; the paced steps ran at 600k, where it keeps up to 37,500/s.
    const slowDrain = product(37_500, 36_000, atSpeed(600_000));
    const r = await fromCeiling(slowDrain.runAt, { ceiling: 32_700, gendataCap: 200_000, ceilingSpeed: 500_000 });
    // The bound at 600k is 41,202/s (32,700 + 5 %, × 600k ÷ 500k): 27,800 and 34,500 keep up, 37,900 saturates, 34,500 is confirmed.
    expect(slowDrain.calls.map((c) => c.rate)).toEqual([27_800, 34_500, 37_900, 34_500]);
    expect(r.knee).toBe(34_500);
    expect(r.bracket).toEqual({ keptUp: 34_500, saturated: 37_900 });
    // With nothing saturated under it, the bracket closes at the bound the bisection stopped under: the drain's read at the keep-up's speed.
    const noSaturation = await findKneeFromCeiling(product(45_000, 44_000, atSpeed(600_000)).runAt, {
      ceiling: 32_700,
      gendataCap: 200_000,
      ceilingSpeed: 500_000,
    });
    expect(noSaturation.bracket).toEqual({ keptUp: noSaturation.knee, saturated: 41_200 });
    const sameSpeed = product(37_500, 36_000, atSpeed(510_000));
    const same = await fromCeiling(sameSpeed.runAt, { ceiling: 32_700, gendataCap: 200_000, ceilingSpeed: 500_000 });
    // The same drain at the paced steps' speed: 32,700/s keeps up, so the drain read low, and the search steps on by 10 %
    // (rounded down) until 39,400 saturates.
    expect(sameSpeed.calls.map((c) => c.rate)).toEqual([27_800, 31_100, 32_700, 35_900, 39_400, 35_900]);
    expect(same.knee).toBe(35_900);
    expect(same.bracket).toEqual({ keptUp: 35_900, saturated: 39_400 });
  });

  it("under a ceiling that is gendata's (the product read as fast as it wrote), the knee is at least, with no upper end", async () => {
    const { runAt, calls } = product(400_000, 400_000);
    const r = await fromCeiling(runAt, { ceiling: 181_000, gendataCap: 163_000, ceilingByGendata: true });
    expect(calls).toEqual([{ rate: 163_000, purpose: "paced" }, { rate: 163_000, purpose: "confirm" }]);
    expect(r.knee).toBe(163_000);
    expect(r.confirmed).toBe(true);
    expect(r.bracket).toEqual({ keptUp: 163_000 });
    expect(r.stoppedBecause).toMatch(/the knee is at least 163000\/s/);
  });

  it("moves a saturated step down halfway toward its consumed rate", async () => {
    // Paced, this product sustains far less than it drains (gendata and the broker take their share).
    const { runAt, calls } = product(62_000, 50_000);
    const r = await fromCeiling(runAt, { ceiling: 100_000, gendataCap: 160_000 });
    // 85k saturates at 50k: down to 67.5k (saturates), 58.8k (keeps up), then bisect toward 67.5k: 63.2k saturates; confirm 58.8k
    expect(calls.map((c) => c.rate)).toEqual([85_000, 67_500, 58_800, 63_200, 58_800]);
    expect(r.knee).toBe(58_800);
    expect(r.confirmed).toBe(true);
    expect(r.bracket).toEqual({ keptUp: 58_800, saturated: 63_200 });
  });

  it("bisects back up when a saturated step consumed far less than the product sustains", async () => {
    // Paced at 59,100/s node consumed 42,857/s; the sweep's knee was 47,500/s (bracket to 50,000).
    const { runAt, calls } = product(48_000, 42_857);
    const r = await fromCeiling(runAt, { ceiling: 65_714, gendataCap: 160_000 });
    // 55.9k saturates at 42.9k: halfway down to 49.4k (saturates), 46.1k keeps up within 10 % of 49.4k: confirmed
    expect(calls.map((c) => `${c.purpose} ${c.rate}`)).toEqual(["paced 55900", "paced 49400", "paced 46100", "confirm 46100"]);
    expect(r.knee).toBe(46_100);
    expect(r.confirmed).toBe(true);
    expect(r.bracket).toEqual({ keptUp: 46_100, saturated: 49_400 });
    expect(r.bracket!.saturated!).toBeLessThanOrEqual(r.knee! * (1 + KNEE_RESOLUTION));
  });

  it("bisects past an unsettled drain's rate, up to gendata's cap, and leaves the bracket open there (a JVM drained while still warming)", async () => {
    // The drain read 27,158/s while the JVM warmed; paced, flink keeps up to 80k.
    const { runAt, calls } = product(80_000, 70_000);
    const r = await fromCeiling(runAt, { ceiling: 27_158, gendataCap: 100_000, ceilingUnsettled: true });
    expect(calls[0]?.rate).toBe(23_100);
    expect(Math.max(...calls.map((c) => c.rate))).toBeGreaterThan(27_158);
    expect(r.knee).toBeGreaterThan(80_000 / (1 + KNEE_RESOLUTION));
    expect(r.knee).toBeLessThanOrEqual(80_000);
    expect(r.confirmed).toBe(true);
    expect(r.bracket?.saturated === undefined || r.bracket.saturated > 27_158).toBe(true);
  });

  it("never climbs past the sweep's factor over a keep-up when a busy drain bounds nothing " +
    "(a far climb leaves a backlog that outlasts the drain's timeout)", async () => {
    const { runAt, calls } = product(10_500, 10_000);
    const r = await fromCeiling(runAt, { ceiling: 10_944, gendataCap: 150_000, ceilingUnsettled: true });
    expect(calls[0]?.rate).toBe(9_300);
    expect(calls[1]?.rate).toBe(18_600); // 2 × 9,300, not halfway to 150,000
    expect(r.knee).toBeGreaterThan(10_500 / (1 + KNEE_RESOLUTION));
    expect(r.knee).toBeLessThanOrEqual(10_500);
    expect(r.confirmed).toBe(true);
  });

  it("bounds the knee by gendata and says 'at least'", async () => {
    const { runAt } = product(250_000, 260_000);
    const r = await fromCeiling(runAt, { ceiling: 300_000, gendataCap: 160_000 });
    expect(r.knee).toBe(160_000);
    expect(r.stoppedBecause).toMatch(/at least 160000\/s/);
  });

  it("bisects under a rate gendata could not offer beside the product instead of ending there", async () => {
    // An unsettled drain bounds nothing: the climb goes halfway to gendata's cap, which gendata cannot offer beside the product.
    const { runAt, calls } = product(130_000, 140_000, { G: 146_797 });
    const r = await fromCeiling(runAt, { ceiling: 98_501, gendataCap: 228_000, ceilingUnsettled: true, confirm: false, resolution: 0.2 });
    expect(calls.map((c) => c.rate)).toEqual([83_700, 156_000, 120_000, 138_000]);
    expect(r.knee).toBe(120_000);
    expect(r.bracket).toEqual({ keptUp: 120_000, saturated: 138_000 });
    expect(r.stoppedBecause).not.toMatch(/at least/);
  });

  it("says 'at least' when the bisection up ends at gendata's cap with nothing saturated above", async () => {
    // The unsettled drain read 36,616/s; paced, flink kept up at every rate gendata could offer beside it.
    const { runAt } = product(90_000, 80_000);
    const r = await fromCeiling(runAt, { ceiling: 36_616, gendataCap: 0.9 * 70_970, ceilingUnsettled: true });
    expect(r.knee).toBeGreaterThan((0.9 * 70_970) / (1 + KNEE_RESOLUTION));
    expect(r.bracket).toEqual({ keptUp: r.knee });
    expect(r.stoppedBecause).toMatch(/the knee is at least/);
  });

  it("says 'at least' when gendata's cap under a settled ceiling ends the bisection, and not when the product's ceiling does", async () => {
    const capped = await fromCeiling(product(95_000, 100_000).runAt, { ceiling: 100_000, gendataCap: 90_000 });
    expect(capped.knee).toBe(85_000);
    expect(capped.stoppedBecause).toMatch(/the knee is at least 85000\/s/);
    const byProduct = await fromCeiling(product(95_000, 100_000).runAt, { ceiling: 100_000, gendataCap: 160_000 });
    expect(byProduct.stoppedBecause).not.toMatch(/at least/);
  });

  it("does not say 'at least' when a saturated step, not gendata's cap, closed the bisection", async () => {
    const { runAt } = product(60_000, 55_000);
    const r = await fromCeiling(runAt, { ceiling: 36_616, gendataCap: 100_000, ceilingUnsettled: true });
    expect(r.bracket?.saturated).toBeDefined();
    expect(r.stoppedBecause).not.toMatch(/at least/);
  });

  it("steps under a rate gendata falls short of beside the product", async () => {
    const { runAt, calls } = product(250_000, 260_000, { G: 140_000 });
    const r = await fromCeiling(runAt, { ceiling: 200_000, gendataCap: 200_000 });
    expect(calls[0]?.rate).toBe(170_000);
    expect(calls[1]?.rate).toBe(roundRate(140_000 * DOWN_SHARE));
    // Up from there, under the rates gendata could not offer, to the highest it could, and its confirm.
    expect(calls.slice(2).map((c) => c.rate)).toEqual([167_000, 150_000, 142_000, 142_000]);
    expect(r.knee).toBe(142_000);
    expect(r.stoppedBecause).toMatch(/at least 142000\/s/);
  });

  it("never takes a draining or unsettled keep-up as keeping up, running it once more", async () => {
    const { runAt, calls } = product(95_000, 100_000, {
      override: (call, _rate, normal) => (call === 0 ? { ...normal, regime: "draining" } : call === 2 ? { ...normal, unsettled: true } : undefined),
    });
    const r = await fromCeiling(runAt, { ceiling: 100_000, gendataCap: NO_BISECT_CAP });
    // paced (draining) -> again (keep-up) -> confirm (unsettled) -> confirm again (keep-up)
    expect(calls.map((c) => c.purpose)).toEqual(["paced", "paced", "confirm", "confirm"]);
    expect(r.knee).toBe(85_000);
    expect(r.confirmed).toBe(true);
  });

  it("steps down when the confirm does not hold", async () => {
    const { runAt, calls } = product(95_000, 100_000, {
      override: (call, _r, normal) => (call === 1 ? { ...normal, regime: "saturated", consumedPerSec: 88_000 } : undefined),
    });
    const r = await fromCeiling(runAt, { ceiling: 100_000, gendataCap: NO_BISECT_CAP });
    expect(calls.map((c) => c.rate)).toEqual([85_000, 85_000, roundRate(85_000 * DOWN_SHARE), roundRate(85_000 * DOWN_SHARE)]);
    expect(r.knee).toBe(roundRate(85_000 * DOWN_SHARE));
  });

  it("after a confirm that does not hold, confirms the highest lower rate that kept up when the bracket is already within the resolution " +
    "(a bracket already narrow)", async () => {
    // 85k keeps up, 95k saturates, 90k keeps up once and saturates on its confirm: 85k is within 10 % of it
    const { runAt, calls } = product(93_000, 92_000, {
      override: (call, _r, normal) => (call === 3 ? { ...normal, regime: "saturated", consumedPerSec: 88_000 } : undefined),
    });
    const r = await fromCeiling(runAt, { ceiling: 100_000, gendataCap: 160_000 });
    expect(calls.map((c) => `${c.purpose} ${c.rate}`)).toEqual(["paced 85000", "paced 95000", "paced 90000", "confirm 90000", "confirm 85000"]);
    expect(r.knee).toBe(85_000);
    expect(r.confirmed).toBe(true);
    expect(r.bracket).toEqual({ keptUp: 85_000, saturated: 90_000 });
  });

  it("after a confirm that does not hold, bisects between the highest lower keep-up and the failed rate " +
    "when they are further apart than the resolution", async () => {
    // 70k and 85k keep up, 92.5k saturates, 85k fails its confirm: 70k is 18 % under it, so 77.5k (not 0.95 × 85k)
    const { runAt, calls } = product(88_000, 86_000, {
      override: (call, _r, normal) => (call === 3 ? { ...normal, regime: "saturated", consumedPerSec: 84_000 } : undefined),
    });
    const r = await fromCeiling(runAt, { ceiling: 82_400, gendataCap: 100_000, ceilingUnsettled: true });
    expect(calls.map((c) => `${c.purpose} ${c.rate}`)).toEqual(["paced 70000", "paced 85000", "paced 92500", "confirm 85000", "paced 77500", "confirm 77500"]);
    expect(r.knee).toBe(77_500);
    expect(r.confirmed).toBe(true);
  });

  it("runs a repeat whose cost disagrees once more, and says so when it never agrees", async () => {
    const { runAt, calls } = product(95_000, 100_000, { cost: (call) => [10, 14, 18][call] ?? 10 });
    const r = await fromCeiling(runAt, { ceiling: 100_000, gendataCap: NO_BISECT_CAP });
    expect(calls).toHaveLength(3);
    expect(r.confirmed).toBe(false);
    expect(r.stoppedBecause).toMatch(/cost did not repeat \(10\.0 \/ 14\.0 \/ 18\.0/);
  });

  it("repeats a noisy step (bounded) and never reads it as the knee", async () => {
    const { runAt, calls } = product(95_000, 100_000, { override: (call, _r, normal) => (call === 0 ? { ...normal, noisy: "foreign load 40%" } : undefined) });
    const r = await fromCeiling(runAt, { ceiling: 100_000, gendataCap: NO_BISECT_CAP });
    expect(calls.map((c) => c.purpose)).toEqual(["paced", "paced", "confirm"]);
    expect(r.knee).toBe(85_000);
    expect(r.confirmed).toBe(true);
  });

  it("withdraws the knee after an invalid step, and ends at a failed one", async () => {
    const invalid = product(95_000, 100_000, { override: (call, _r, normal) => (call === 1 ? { ...normal, invalid: "3 records lost" } : undefined) });
    const r = await fromCeiling(invalid.runAt, { ceiling: 100_000, gendataCap: 160_000 });
    expect(r.knee).toBeUndefined();
    expect(r.confirmed).toBe(false);
    expect(r.stoppedBecause).toMatch(/invalid run/);

    const failed = product(95_000, 100_000, { override: (call, _r, normal) => (call === 0 ? { ...normal, failed: "exited (code 1)" } : undefined) });
    const f = await fromCeiling(failed.runAt, { ceiling: 100_000, gendataCap: 160_000 });
    expect(failed.calls).toHaveLength(1);
    expect(f.knee).toBeUndefined();
    expect(f.stoppedBecause).toMatch(/failed: exited/);
  });

  it("stops at its cap of runs for a product that never keeps up", async () => {
    const { runAt, calls } = product(0, 50_000, {
      override: (_c, _r, normal) => ({ ...normal, regime: "saturated", consumedPerSec: normal.offeredPerSec * 0.99 }),
    });
    const r = await fromCeiling(runAt, { ceiling: 100_000, gendataCap: 160_000 });
    expect(calls).toHaveLength(MAX_FAST_STEPS);
    expect(r.knee).toBeUndefined();
    expect(r.stoppedBecause).toMatch(new RegExp(`cap of ${MAX_FAST_STEPS} runs`));
  });

  it("refuses a search without a ceiling", async () => {
    await expect(fromCeiling(product(1, 1).runAt, { ceiling: 0, gendataCap: 100 })).rejects.toThrow(RangeError);
  });
});
