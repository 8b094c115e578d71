import type { BenchResults } from "../results/types.ts";
import { kneesFrom } from "./knees.ts";

describe("--knees", () => {
  it("takes each product's confirmed knee and nothing else", () => {
    const sweep = (product: string, knee: number | undefined, confirmed: boolean) => ({
      product,
      ...(knee !== undefined ? { knee } : {}),
      confirmed,
      stoppedBecause: "",
      steps: [],
    });
    const results = { sweeps: [sweep("node", 47_500, true), sweep("quix", 9000, false), sweep("spark", undefined, false)] } as unknown as BenchResults;
    expect([...kneesFrom(results)]).toEqual([["node", 47_500]]);
  });
});
