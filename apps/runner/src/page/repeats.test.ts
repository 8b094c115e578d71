import type { SweepRecord, SweepStep } from "../results/types.ts";
import { repeatPairs, repeatReport, repeatSentence, summariseRepeats } from "./repeats.ts";

const step = (rate: number, regime: SweepStep["regime"], micros?: number, more: Partial<SweepStep> = {}): SweepStep => ({
  rate, purpose: "paced", offeredPerSec: rate, consumedPerSec: rate, regime, gendataShort: false,
  ...(micros !== undefined ? { cpuMicrosPerInference: micros } : {}), ...more,
});

const search = (
  product: string,
  steps: SweepStep[],
  method: SweepRecord["method"] = "fast",
): SweepRecord => ({ product, method, confirmed: true, stoppedBecause: "test", steps });

describe("how far a search repeats itself", () => {
  it("pairs each step with the next one at its rate, in the order they ran", () => {
    const pairs = repeatPairs(
      [
        search(
          "node",
          [
            step(0, "draining", undefined, { purpose: "drain" }),
            step(50_000, "keep-up", 10),
            step(60_000, "saturated"),
            step(50_000, "keep-up", 11, { purpose: "confirm" }),
            step(50_000, "saturated", undefined, { purpose: "confirm" }),
          ],
        ),
      ],
    );
    expect(pairs.map((p) => [p.product, p.method, p.rate, p.first.cpuMicrosPerInference, p.second.regime])).toEqual([
      ["node", "fast", 50_000, 10, "keep-up"],
      ["node", "fast", 50_000, 11, "saturated"],
    ]);
  });

  it("leaves out steps that did not read the product: noisy, short of load, slower than usual, failed, or the drain", () => {
    const steps = [
      step(40_000, "keep-up", 10), step(40_000, "keep-up", 20, { noisy: "steal 9%" }),
      step(40_000, "saturated", undefined, { slower: "index 300k against 550k" }),
      step(40_000, "keep-up", 20, { gendataShort: true }), step(40_000, "keep-up", undefined, { failed: "exit 1" }),
      step(40_000, "draining", undefined, { purpose: "drain" }),
    ];
    expect(repeatPairs([search("quix", steps, "sweep")])).toEqual([]);
  });

  it("counts the pairs whose verdict differs and the µs spread of the pairs that both kept up", () => {
    const pairs = repeatPairs([
      search("a", [step(10, "keep-up", 10), step(10, "keep-up", 10.2), step(10, "saturated")]),
      search("b", [step(20, "keep-up", 20), step(20, "keep-up", 22)], "sweep"),
    ]);
    const summary = summariseRepeats(pairs, 0.05);
    expect(summary).toMatchObject({ pairs: 3, verdictDiffers: 1, costPairs: 2, costOverBound: 1 });
    expect(summary.costSpreadMedian).toBeCloseTo((0.02 + 0.1) / 2, 9);
    expect(summary.costSpreadMax).toBeCloseTo(0.1, 9);
    expect(repeatSentence(summary, 0.05)).toBe(
      "ran 3 pairs of steps at one rate; one kept up and the other saturated in 1; of the 2 that both kept up, µs per inference differed by 6.0% in the " +
        "median pair and 10.0% at the most, by more than ±5% in 1",
    );
  });

  it("gives the spread with each step's speed index taken out, where both steps have one", () => {
    // 10 µs at index 500k and 11 µs at 450k: 10 % apart raw, 1 % apart at one speed
    const summary = summariseRepeats(
      repeatPairs([search("a", [step(10, "keep-up", 10, { speedIndex: 500_000 }), step(10, "keep-up", 11, { speedIndex: 450_000 }), step(10, "keep-up", 12)])]),
      0.05,
    );
    expect(summary.costPairs).toBe(2);
    expect(summary.costSpreadAtSpeedMedian).toBeCloseTo(5_000_000 / 4_950_000 - 1, 9);
    expect(repeatSentence(summary, 0.05)).toContain("(with each step's speed index taken out, 1.0% in the median pair)");
  });

  it("says so when no step ran twice at one rate", () => {
    const summary = summariseRepeats(repeatPairs([search("a", [step(10, "keep-up", 10), step(20, "saturated")])]), 0.05);
    expect(summary).toEqual({ pairs: 0, verdictDiffers: 0, costPairs: 0, costOverBound: 0 });
    expect(repeatSentence(summary, 0.05)).toBe("ran no step twice at one rate");
  });
});

describe("the repeats report", () => {
  it("gives each file's searches by kind, then all of them together", () => {
    const lines = repeatReport(
      [
        { label: "a.json", sweeps: [search("node", [step(10, "keep-up", 10), step(10, "keep-up", 10.2)])] },
        { label: "b.json", sweeps: [search("node", [step(20, "keep-up", 20), step(20, "saturated")], "sweep")] },
      ],
      0.05,
    );
    expect(lines).toEqual([
      "a.json (fast): ran 1 pair of steps at one rate; one kept up and the other saturated in 0; of the 1 that both kept up, µs per inference differed by " +
        "2.0% in the median pair and 2.0% at the most, by more than ±5% in 0",
      "b.json (sweep): ran 1 pair of steps at one rate; one kept up and the other saturated in 1; no pair kept up with a µs figure on both",
      "all 2 files (fast): ran 1 pair of steps at one rate; one kept up and the other saturated in 0; of the 1 that both kept up, µs per inference differed " +
        "by 2.0% in the median pair and 2.0% at the most, by more than ±5% in 0",
      "all 2 files (sweep): ran 1 pair of steps at one rate; one kept up and the other saturated in 1; no pair kept up with a µs figure on both",
      "all 2 files (both): ran 2 pairs of steps at one rate; one kept up and the other saturated in 1; of the 1 that both kept up, µs per inference " +
        "differed by 2.0% in the median pair and 2.0% at the most, by more than ±5% in 0",
    ]);
  });
});
