import { countingRun } from "../page/__fixtures__/counting-run.ts";
import type { BenchResults } from "../results/types.ts";
import { kneesFrom } from "./knees.ts";

const sweep = (product: string, knee: number | undefined, confirmed: boolean) => ({
  product,
  ...(knee !== undefined ? { knee } : {}),
  confirmed,
  stoppedBecause: "",
  steps: [],
});

describe("--knees", () => {
  it("takes each product's confirmed knee and nothing else", () => {
    const sweeps = [sweep("node", 47_500, true), sweep("quix", 9000, false), sweep("spark", undefined, false)];
    const results = { runs: [], sweeps } as unknown as BenchResults;
    expect([...kneesFrom(results)]).toEqual([["node", { rate: 47_500, from: "knee" }]]);
  });

  it("takes a main command's rounds' rate, where the row kept up round after round, for a row ranked there, named as its share of the knee", () => {
    const rounds = [1, 2, 3].map((round) => countingRun("quix", 6_300, 50 + round, { round, loadShare: 0.7 }));
    const once = countingRun("faststream", 7_000, 40, { round: 1, loadShare: 0.7 });
    const results = {
      runs: [...rounds, once],
      sweeps: [sweep("quix", 9_000, false), sweep("faststream", 10_000, false)],
      rounds: { loadShare: 0.7 },
    } as unknown as BenchResults;
    expect([...kneesFrom(results)]).toEqual([["quix", { rate: 6_300, from: "0.7 × knee" }]]);
  });
});
