import { coefficientOfVariation, median, t975 } from "./stats.ts";

describe("stats", () => {
  it("median: the middle value, or the mean of the two middle ones", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBe(0);
  });

  it("coefficient of variation: sample standard deviation over the mean", () => {
    expect(coefficientOfVariation([10, 10, 10])).toBe(0);
    expect(coefficientOfVariation([9, 11])).toBeCloseTo(Math.SQRT2 / 10, 9);
    expect(coefficientOfVariation([5])).toBe(0);
  });
});

describe("t975", () => {
  it("gives Student's quantiles", () => {
    expect(t975(1)).toBeCloseTo(12.706, 3);
    expect(t975(4)).toBeCloseTo(2.776, 3);
    expect(t975(40)).toBeCloseTo(2.021, 2);
    expect(t975(1000)).toBeCloseTo(1.962, 2);
  });
  it("takes fractional degrees of freedom, and the normal's quantile at infinity", () => {
    expect(t975(2.5)).toBeLessThan(t975(2));
    expect(t975(2.5)).toBeGreaterThan(t975(3));
    expect(t975(Infinity)).toBeCloseTo(1.96, 3);
  });
  it("refuses zero degrees of freedom", () => {
    expect(() => t975(0)).toThrow(RangeError);
  });
});
