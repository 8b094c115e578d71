import type { BenchResults, RunResult } from "../results/types.ts";
import { countingRun, resultsOf } from "./__fixtures__/counting-run.ts";
import { CRAYFISH_FINDING, crayfishLines } from "./crayfish.ts";
import { sideOf } from "./exactly-once.ts";

/** Three counting rounds of `product` at `rate` (0.7 of its knee) with these µs. */
const rounds = (product: string, rate: number, micros: number[]): RunResult[] =>
  micros.map((m, i) => countingRun(product, rate, m, { round: i + 1, loadShare: 0.7 }));

const text = (embedded: BenchResults, served: BenchResults, products: string[]): string =>
  crayfishLines(sideOf(embedded), sideOf(served), products).join("\n");

describe("Crayfish beside this bench", () => {
  const embedded = resultsOf([...rounds("a", 70_000, [7, 7.1, 6.9]), ...rounds("b", 35_000, [14, 14.2, 13.9]), ...rounds("c", 20_000, [30, 31, 29])]);

  it("gives Crayfish's finding, then each row's knee embedded and served", () => {
    const served = resultsOf([...rounds("a", 14_000, [40, 41, 39]), ...rounds("b", 7_000, [60, 61, 59])]);
    const lines = text(embedded, served, ["a", "b"]);
    expect(lines.startsWith(CRAYFISH_FINDING)).toBe(true);
    expect(lines).toContain("Here each row's knee, embedded → served: a 70,000 → 14,000 (5.00×), b 35,000 → 7,000 (5.00×).");
    expect(lines).toContain("By knee, embedded a > b; served a > b (the same order).");
  });

  it("names the knees' order each way when serving changes it", () => {
    const served = resultsOf([...rounds("a", 7_000, [40, 41, 39]), ...rounds("b", 14_000, [60, 61, 59])]);
    expect(text(embedded, served, ["a", "b"])).toContain("By knee, embedded a > b; served b > a.");
  });

  it("counts the pairs told apart both ways that keep their order served", () => {
    const served = resultsOf([...rounds("a", 14_000, [40, 41, 39]), ...rounds("b", 7_000, [60, 61, 59]), ...rounds("c", 5_000, [90, 92, 88])]);
    expect(text(embedded, served, ["a", "b", "c"])).toContain("Of the 3 pairs of rows told apart in µs both ways, 3 keep their order served.");
  });

  it("says when no pair is told apart both ways, and when no row has a knee both ways", () => {
    const served = resultsOf([...rounds("a", 14_000, [40, 41, 39])]);
    expect(text(embedded, served, ["a"])).toContain("No pair of these rows is told apart in µs both embedded and served");
    expect(text(embedded, resultsOf([]), ["d"])).toContain("Here no row has a knee both ways.");
  });
});
