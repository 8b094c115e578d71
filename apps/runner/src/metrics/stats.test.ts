import { coefficientOfVariation, median } from "./stats.ts";

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
