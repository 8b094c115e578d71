import { MACHINE_SLOWER_SHARE } from "./constants.ts";
import { countsAsRun, rateAtReference, slowerMachine, usualAcross, usualSpeed } from "./machine-speed.ts";
import { REFERENCE_SPEED } from "../run/speed-index.ts";
import type { SearchStep } from "./step.ts";

describe("usualAcross", () => {
  it("takes the higher of the search's usual speed and the bench's, or whichever is known", () => {
    expect(usualAcross(450_000, 600_000)).toBe(600_000);
    expect(usualAcross(620_000, 600_000)).toBe(620_000);
    expect(usualAcross(undefined, 600_000)).toBe(600_000);
    expect(usualAcross(450_000, undefined)).toBe(450_000);
    expect(usualAcross(undefined, undefined)).toBeUndefined();
  });
});

describe("a slower machine", () => {
  const step = (rate: number, regime: "keep-up" | "saturated", speedIndex: number, more: Partial<SearchStep> = {}) => ({
    rate,
    regime,
    speedIndex,
    gendataShort: false,
    ...more,
  });

  it("is read against the keep-ups at or above the rate, else every run that counts, never a noisy or slower one", () => {
    expect(usualSpeed([], 10_000)).toBeUndefined();
    expect(usualSpeed([step(5000, "keep-up", 500_000), step(20_000, "keep-up", 600_000)], 20_000)).toBe(600_000);
    expect(usualSpeed([step(5000, "keep-up", 500_000), step(40_000, "saturated", 600_000)], 20_000)).toBe(550_000);
    expect(usualSpeed([step(5000, "keep-up", 500_000), step(20_000, "keep-up", 300_000, { noisy: "foreign 30%" })], 20_000)).toBe(500_000);
    expect(usualSpeed([step(5000, "keep-up", 500_000), step(20_000, "saturated", 300_000, { slower: "…" })], 20_000)).toBe(500_000);
  });

  it("is markedly slower only beyond the share, and a run without a reading never is", () => {
    expect(slowerMachine({ speedIndex: 600_000 * (1 - MACHINE_SLOWER_SHARE) + 1 }, 600_000)).toBeUndefined();
    expect(slowerMachine({ speedIndex: 500_000 }, 600_000)?.text).toBe("speed index 500,000 against 600,000 usual here (−17%)");
    expect(slowerMachine({}, 600_000)).toBeUndefined();
    expect(slowerMachine({ speedIndex: 500_000 }, undefined)).toBeUndefined();
  });

  it("a run counts only when it was neither failed, interrupted, invalid, noisy nor slower", () => {
    expect(countsAsRun({})).toBe(true);
    for (const aside of [{ failed: "x" }, { interrupted: "x" }, { invalid: "x" }, { noisy: "x" }, { slower: "x" }]) expect(countsAsRun(aside)).toBe(false);
  });

  it("takes a rate to the reference speed as µs are: rate × reference ÷ its index", () => {
    expect(rateAtReference(10_000, REFERENCE_SPEED)).toBe(10_000);
    expect(rateAtReference(10_000, REFERENCE_SPEED / 2)).toBe(20_000);
  });
});
