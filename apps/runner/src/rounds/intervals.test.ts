import { mulberry32 } from "@bench/core";
import { BOOTSTRAP_FROM, compareRows, halfWidth, medianInterval, medianIntervals, overlaps, SAME_MARGIN, verdictOf } from "./intervals.ts";
import { normal } from "./__fixtures__/draws.ts";

const byRound = (xs: number[]): Map<number, number> => new Map(xs.map((x, i) => [i + 1, x]));

describe("medianInterval", () => {
  it("is the median with no width for one value, none for no value", () => {
    expect(medianInterval([7])).toEqual({ median: 7, low: 7, high: 7, n: 1, method: "one value" });
    expect(medianInterval([])).toBeUndefined();
  });

  it("takes a t-interval on the logs for a handful of rounds, holding the median", () => {
    const i = medianInterval([10, 11, 12])!;
    expect(i.method).toBe("t on logs");
    expect(i.median).toBe(11);
    // exp(mean(log) ± 4.303 × sd(log) / √3) by hand: mean 2.39513, sd 0.091192.
    expect(i.low).toBeCloseTo(8.746, 2);
    expect(i.high).toBeCloseTo(13.759, 2);
  });

  it("bootstraps the median from BOOTSTRAP_FROM rounds on, the same every time", () => {
    const values = Array.from({ length: BOOTSTRAP_FROM }, (_, i) => 10 + i);
    const a = medianInterval(values)!;
    expect(a.method).toBe("bootstrap");
    expect(a.low).toBeLessThan(a.median);
    expect(a.high).toBeGreaterThan(a.median);
    expect(medianInterval(values)).toEqual(a);
  });

  it("refuses a value that is not positive", () => {
    expect(() => medianInterval([1, 0])).toThrow(RangeError);
  });

  it("covers the true median about 95 % of the time (3 and 12 rounds of log-normal noise of 15 %)", () => {
    const rng = mulberry32(42);
    for (const [n, trials] of [[3, 400], [12, 200]] as const) {
      let covered = 0;
      for (let k = 0; k < trials; k++) {
        const values = Array.from({ length: n }, () => 20 * Math.exp(0.15 * normal(rng)));
        const i = medianInterval(values)!;
        if (i.low <= 20 && 20 <= i.high) covered++;
      }
      // At 95 %, 400 trials have a standard error of 1.1 % and 200 of 1.5 %: 88–99 % holds unless the interval is wrong.
      expect(covered / trials).toBeGreaterThan(0.88);
      expect(covered / trials).toBeLessThan(0.99);
    }
  });
});

describe("medianIntervals", () => {
  const sitting = (rows: number[][]): Map<number, number[]> => new Map(rows.map((r, i) => [i, r]));

  it("gives each group its own t-interval when fewer than three groups have two values", () => {
    const groups = sitting([[10, 11, 12], [20, 26, 21], [7]]);
    const intervals = medianIntervals(groups);
    expect(intervals.get(0)).toEqual(medianInterval([10, 11, 12]));
    expect(intervals.get(1)!.method).toBe("t on logs");
    expect(intervals.get(2)!.method).toBe("one value");
  });

  it("widens a group whose rounds agree by luck and narrows one whose rounds scatter, among rows that spread alike", () => {
    const groups = sitting([[10, 10.05, 9.95], [20, 23, 18], [5, 5.6, 4.7], [30, 27, 33], [8, 8.9, 7.5], [40, 52, 35]]);
    const intervals = medianIntervals(groups);
    const own = (i: number) => halfWidth(medianInterval(groups.get(i)!)!);
    expect(intervals.get(0)!.method).toBe("moderated t on logs");
    expect(halfWidth(intervals.get(0)!)).toBeGreaterThan(own(0));
    expect(halfWidth(intervals.get(5)!)).toBeLessThan(own(5));
    for (const [i, values] of groups) expect(intervals.get(i)!.median).toBe(medianInterval(values)!.median);
  });

  it("covers each row's true figure about 95 % of the time (300 sittings of 11 rows, three rounds of log-normal noise of 8–15 %)", () => {
    const rng = mulberry32(2026);
    let [covered, total] = [0, 0];
    for (let s = 0; s < 300; s++) {
      const truth = Array.from({ length: 11 }, (_, i) => 5 * (i + 1));
      const sd = Array.from({ length: 11 }, (_, i) => 0.08 + (0.07 * i) / 10);
      const intervals = medianIntervals(sitting(truth.map((t, i) => Array.from({ length: 3 }, () => t * Math.exp((sd[i] as number) * normal(rng))))));
      truth.forEach((t, i) => {
        const { low, high } = intervals.get(i)!;
        total++;
        if (low <= t && t <= high) covered++;
      });
    }
    // 3,300 intervals have a standard error of 0.4 % at 95 %: 93–98 % holds unless the moderation misreads the spread.
    expect(covered / total).toBeGreaterThan(0.93);
    expect(covered / total).toBeLessThan(0.98);
  });

  it("leaves a group of BOOTSTRAP_FROM values or more to the bootstrap", () => {
    const many = Array.from({ length: BOOTSTRAP_FROM }, (_, i) => 10 + i);
    expect(medianIntervals(sitting([many, [1, 2, 3], [4, 5, 6]])).get(0)).toEqual(medianInterval(many));
  });
});

describe("compareRows", () => {
  it("calls two rows SAME when their paired ratio stays within ±5 %, though each moves 30 % from round to round", () => {
    const a = byRound([10, 13, 9, 12, 11]);
    const b = byRound([10.2, 12.9, 9.1, 11.9, 11.1]);
    const { ratio, verdict } = compareRows(a, b);
    expect(verdict).toBe("SAME");
    expect(ratio!.low).toBeGreaterThan(0.95);
    expect(ratio!.high).toBeLessThan(1.05);
  });

  it("calls two rows DIFFERENT when one costs a fifth more in every round", () => {
    const a = byRound([12, 15.6, 10.8, 14.4]);
    const b = byRound([10, 13, 9, 12]);
    expect(compareRows(a, b).verdict).toBe("DIFFERENT");
    expect(compareRows(b, a).verdict).toBe("DIFFERENT");
  });

  it("says UNKNOWN when the rounds disagree about the order, or when fewer than two rounds pair", () => {
    expect(compareRows(byRound([10, 12, 9]), byRound([11, 10, 10])).verdict).toBe("UNKNOWN");
    expect(compareRows(new Map([[1, 10], [2, 11]]), new Map([[2, 12], [3, 13]])).verdict).toBe("UNKNOWN");
  });

  it("with fewer than two paired rounds, tells rows apart by their own intervals only when those lie far apart, and never calls them the same", () => {
    // Spark-like: counting rounds 1 and 4; its neighbours counted in rounds 1 to 3.
    const a = new Map([[1, 16.5], [4, 17.9]]);
    const far = new Map([[1, 3.0], [2, 2.9], [3, 3.1]]);
    const near = new Map([[1, 16.9], [2, 17.2], [3, 17.4]]);
    const own = (x: Map<number, number>) => medianInterval([...x.values()]);
    const apart = compareRows(a, far, SAME_MARGIN, { a: own(a), b: own(far) });
    expect(apart.verdict).toBe("DIFFERENT");
    expect(apart.ratio!.method).toBe("unpaired");
    expect(apart.ratio!.low).toBeGreaterThan(1 + SAME_MARGIN);
    expect(compareRows(a, near, SAME_MARGIN, { a: own(a), b: own(near) }).verdict).toBe("UNKNOWN");
    const twin = new Map([[4, 17.0], [5, 17.0]]);
    expect(compareRows(new Map([[1, 17.0], [2, 17.0]]), twin, SAME_MARGIN, { a: own(twin), b: own(twin) }).verdict).toBe("UNKNOWN");
    // One value has no interval to read.
    expect(compareRows(new Map([[4, 17.9]]), far, SAME_MARGIN, { a: own(new Map([[4, 17.9]])), b: own(far) }).verdict).toBe("UNKNOWN");
  });

  it("pairs by round, so a round only one row ran does not count", () => {
    const a = new Map([[1, 10], [2, 10], [3, 10], [4, 50]]);
    const b = new Map([[1, 10], [2, 10], [3, 10]]);
    expect(compareRows(a, b).ratio!.n).toBe(3);
  });
});

describe("verdictOf, overlaps, halfWidth", () => {
  it("reads an interval against ±5 %", () => {
    expect(verdictOf({ low: 1.06, high: 1.2 })).toBe("DIFFERENT");
    expect(verdictOf({ low: 0.8, high: 0.94 })).toBe("DIFFERENT");
    expect(verdictOf({ low: 0.96, high: 1.04 })).toBe("SAME");
    expect(verdictOf({ low: 1.01, high: 1.07 })).toBe("UNKNOWN");
  });
  it("tells overlapping intervals and their half-width", () => {
    expect(overlaps({ low: 1, high: 2 }, { low: 2, high: 3 })).toBe(true);
    expect(overlaps({ low: 1, high: 2 }, { low: 2.1, high: 3 })).toBe(false);
    expect(halfWidth({ median: 10, low: 9, high: 11, n: 3, method: "t on logs" })).toBeCloseTo(0.1);
  });
});
