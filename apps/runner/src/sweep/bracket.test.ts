import { Bracket } from "./bracket.ts";
import { CLIMB_FACTOR, DOWN_SHARE, DRAIN_BOUND_MARGIN, START_SHARE } from "./constants.ts";
import type { DrainFigures } from "./step.ts";

const drain: DrainFigures = { ceiling: 10_000, gendataCap: 100_000 };
const at = (rate: number, consumedPerSec = rate, offeredPerSec = rate) => ({ rate, consumedPerSec, offeredPerSec });

describe("the bracket", () => {
  it("refuses a drain or a resolution that cannot bound a search", () => {
    expect(() => new Bracket({ ceiling: 0, gendataCap: 1 }, 0.2)).toThrow(RangeError);
    expect(() => new Bracket(drain, 0)).toThrow(RangeError);
  });

  it("starts just under the drain's ceiling, at it when the ceiling is gendata's, and never above gendata's cap", () => {
    expect(new Bracket(drain, 0.2).next()).toEqual({ rate: 10_000 * START_SHARE });
    expect(new Bracket({ ...drain, ceilingByGendata: true }, 0.2).next()).toEqual({ rate: 10_000 });
    expect(new Bracket({ ceiling: 10_000, gendataCap: 5000, ceilingByGendata: true }, 0.2).next()).toEqual({ rate: 5000 });
  });

  it("is bounded by the drain's ceiling and margin while the drain bounds, else by gendata's cap", () => {
    expect(new Bracket(drain, 0.2).bound()).toEqual({ rate: 10_000 * (1 + DRAIN_BOUND_MARGIN), byProduct: true });
    expect(new Bracket({ ...drain, ceilingUnsettled: true }, 0.2).bound()).toEqual({ rate: 100_000, byProduct: false });
    expect(new Bracket({ ...drain, ceilingByGendata: true }, 0.2).bound()).toEqual({ rate: 100_000, byProduct: false });
  });

  it("a keep-up at or above the drain's rate shows the drain read low: only gendata's cap bounds, and the climb goes on", () => {
    const b = new Bracket(drain, 0.1);
    b.keep(at(10_000), "kept-up");
    expect(b.bound()).toEqual({ rate: 100_000, byProduct: false });
    expect(b.next()).toEqual({ rate: 10_000 * CLIMB_FACTOR });
  });

  it("ends within the resolution of the drain's bound after one keep-up just under it", () => {
    const b = new Bracket(drain, 0.2);
    b.keep(at(9000), "kept-up");
    expect(b.next()).toEqual({ done: "the bracket 9000–10500/s is within 20 %" });
    expect(b.knee()).toBe(9000);
    expect(b.top()).toEqual({ rate: 10_500, byProduct: true });
  });

  it("goes down by the resolution under a fallen rate, or to what it consumed when that is lower", () => {
    const near = new Bracket(drain, 0.2);
    near.keep(at(9000, 8990), "fell-behind");
    expect(near.next()).toEqual({ rate: 7500 });
    // The first keep-up under it closes the bracket.
    near.keep(at(7500), "kept-up");
    expect(near.next()).toEqual({ done: "the bracket 7500–9000/s is within 20 %" });
    // Also where the step down rounds under the rate ÷ 1.2 (37,600 ÷ 1.2 = 31,333 → 31,300).
    const rounded = new Bracket({ ceiling: 50_000, gendataCap: 100_000 }, 0.2);
    rounded.keep(at(37_600, 33_573), "fell-behind");
    expect(rounded.next()).toEqual({ rate: 31_300 });
    rounded.keep(at(31_300), "kept-up");
    expect(rounded.next()).toEqual({ done: "the bracket 31300–37600/s is within 20 %" });
    const far = new Bracket(drain, 0.2);
    far.keep(at(9000, 6000), "fell-behind");
    expect(far.next()).toEqual({ rate: 6000 });
    // The sweep's finer resolution steps down finer.
    const fine = new Bracket(drain, 0.1);
    fine.keep(at(9000, 8990), "fell-behind");
    expect(fine.next()).toEqual({ rate: 8180 });
  });

  it("goes down under an unreachable rate toward what gendata offered", () => {
    const b = new Bracket(drain, 0.2);
    b.keep(at(9000, 5000, 6000), "unreachable");
    expect(b.next()).toEqual({ rate: 6000 * DOWN_SHARE });
  });

  it("bisects up toward the lowest saturated rate until the bracket is within the resolution", () => {
    const b = new Bracket({ ...drain, ceilingUnsettled: true }, 0.1);
    b.keep(at(9000, 6000), "fell-behind");
    b.keep(at(7500), "kept-up");
    expect(b.next()).toEqual({ rate: 8250 });
    b.keep(at(8250), "kept-up");
    expect(b.next()).toEqual({ done: "the bracket 8250–9000/s is within 10 %" });
    expect(b.top()).toEqual({ rate: 9000, byProduct: true });
  });

  it("climbs at most by CLIMB_FACTOR while nothing above has saturated", () => {
    const b = new Bracket({ ceiling: 1000, gendataCap: 100_000, ceilingUnsettled: true }, 0.1);
    b.keep(at(900), "kept-up");
    expect(b.next()).toEqual({ rate: 900 * CLIMB_FACTOR });
  });

  it("never takes a rate that saturated once as the knee, even where it kept up too", () => {
    const b = new Bracket(drain, 0.1);
    b.keep(at(9000), "kept-up");
    b.keep(at(9000, 8000), "fell-behind");
    expect(b.knee()).toBeUndefined();
    b.keep(at(8000), "kept-up");
    b.keep(at(9500), "kept-up"); // a lucky keep-up above a saturated rate is not the knee
    expect(b.knee()).toBe(8000);
  });

  it("an unreachable top is gendata's: the knee is only at least", () => {
    const b = new Bracket(drain, 0.1);
    b.keep(at(9000, 9000, 8000), "unreachable");
    b.keep(at(8550), "kept-up");
    expect(b.top()).toEqual({ rate: 9000, byProduct: false });
  });

  it("says so when no rate is left under a fall", () => {
    const b = new Bracket({ ceiling: 1, gendataCap: 100 }, 0.1);
    b.keep(at(1, 0, 0), "unreachable");
    expect(b.next()).toEqual({ done: "no rate under 1/s is left to try" });
  });
});
