import { countingRun, resultsOf } from "../page/__fixtures__/counting-run.ts";
import type { BenchResults, RunResult } from "../results/types.ts";
import { rankLabel, standings, unresolvedRows } from "./standing.ts";

/** One counting run a round for `product` at 10,000/s with these µs, round 1 first. */
const rounds = (product: string, micros: number[]): RunResult[] => micros.map((m, i) => countingRun(product, 10_000, m, { round: i + 1 }));

describe("standings", () => {
  it("ranks rows told apart in order and gives rows not told apart one shared rank range", () => {
    const results = resultsOf([
      ...rounds("cheap", [5, 5.6, 5.5]),
      ...rounds("twin-a", [10, 11, 9.6]),
      ...rounds("twin-b", [10.1, 11.05, 9.65]),
      ...rounds("dear", [30, 32, 31]),
    ]);
    const s = standings(results);
    expect(s.rows.map((r) => [r.product, rankLabel(r)])).toEqual([
      ["cheap", "1"],
      ["twin-a", "2–3"],
      ["twin-b", "2–3"],
      ["dear", "4"],
    ]);
    expect(s.neighbours.map((n) => n.verdict)).toEqual(["DIFFERENT", "SAME", "DIFFERENT"]);
  });

  it("counts only rounds that count as results, and shows the others", () => {
    const saturated = countingRun("row", 10_000, 4, { round: 3 });
    saturated.throughput!.regime = "saturated";
    const s = standings(resultsOf([...rounds("row", [10, 11]), saturated]));
    const row = s.rows[0]!;
    expect(row.rounds).toHaveLength(3);
    expect([...row.byRound.keys()]).toEqual([1, 2]);
    expect(row.interval!.median).toBe(10.5);
  });

  it("stands at the row's latest rate, and counts a round that kept up at a knee it left", () => {
    const earlier = [countingRun("row", 12_000, 9, { round: 1 }), countingRun("row", 12_000, 30, { round: 2 })];
    earlier[1]!.throughput!.regime = "saturated";
    const later = [countingRun("row", 11_000, 10, { round: 3 })];
    const row = standings(resultsOf([...earlier, ...later])).rows[0]!;
    expect(row.rate).toBe(11_000);
    expect([...row.byRound.keys()]).toEqual([1, 3]);
    expect(row.rounds.map((r) => r.run.settings.offeredRate === row.rate)).toEqual([false, false, true]);
  });

  it("ignores runs that belong to no round (the search's other steps)", () => {
    const s = standings(resultsOf([countingRun("row", 10_000, 3), ...rounds("row", [10, 11, 12])]));
    expect(s.rows[0]!.interval!.median).toBe(11);
  });

  it("names the rows whose neighbour is still UNKNOWN", () => {
    const results = resultsOf([...rounds("a", [10, 12, 9]), ...rounds("b", [11, 10, 10]), ...rounds("c", [50, 52, 51])]);
    expect(unresolvedRows(standings(results)).sort()).toEqual(["a", "b"]);
  });
});

describe("a row with fewer than two counting rounds", () => {
  it("is not ranked and does not widen the others' ranks", () => {
    const cold = rounds("cold", [12, 30, 31]);
    for (const r of cold.slice(1)) r.throughput!.regime = "saturated";
    const s = standings(resultsOf([...rounds("cheap", [5, 5.6, 5.5]), ...cold, ...rounds("dear", [30, 32, 31])]));
    expect(s.rows.map((r) => [r.product, rankLabel(r)])).toEqual([
      ["cheap", "1"],
      ["cold", "–"],
      ["dear", "2"],
    ]);
    expect(s.neighbours.map((n) => [n.cheaper, n.dearer])).toEqual([["cheap", "dear"]]);
  });

  it("reads only the rounds at the sitting's load share; a window at the knee beside them stands apart", () => {
    const share = 0.7;
    const atShare = [5, 6, 5.5].map((m, i) => countingRun("row", 7_000, m, { round: i + 1, loadShare: share }));
    const atKnee = [4, 4.5, 4.2].map((m, i) => countingRun("row", 10_000, m, { round: i + 1, loadShare: 1 }));
    const results = { ...resultsOf([...atShare, ...atKnee]), rounds: { loadShare: share } } as unknown as BenchResults;
    expect(standings(results).rows[0]!.interval!.median).toBe(5.5);
    expect(standings(results, 1).rows[0]!.interval!.median).toBe(4.2);
    expect(standings(results).rows[0]!.rate).toBe(7_000);
  });
});
