import { countingRun, resultsOf } from "./__fixtures__/counting-run.ts";
import type { BenchResults, RunResult } from "../results/types.ts";
import { hasBothShares, kneeAndShareSection } from "./knee-and-share.ts";

const share = 0.7;
const atShare = (micros: number[]): RunResult[] => micros.map((m, i) => countingRun("row", 7_000, m, { round: i + 1, loadShare: share }));
const atKnee = (micros: number[]): RunResult[] => micros.map((m, i) => countingRun("row", 10_000, m, { round: i + 1, loadShare: 1 }));
const sitting = (runs: RunResult[]): BenchResults =>
  ({ ...resultsOf(runs), rounds: { loadShare: share }, sweeps: [{ product: "row", knee: 10_000 }] }) as unknown as BenchResults;

describe("kneeAndShareSection", () => {
  it("is absent unless the rounds ran at both the load share and the knee", () => {
    expect(hasBothShares(sitting(atShare([5, 6, 5.5])))).toBe(false);
    expect(kneeAndShareSection(sitting(atShare([5, 6, 5.5])))).toEqual([]);
  });

  it("puts each row's figure at the knee beside its figure at the share, with the rounds that counted at each", () => {
    const behind = countingRun("row", 10_000, 3.9, { round: 3, loadShare: 1 });
    behind.throughput!.regime = "saturated";
    const page = kneeAndShareSection(sitting([...atShare([5, 6, 5.5]), ...atKnee([4, 4.4]), behind])).join("\n");
    expect(page).toContain("## At the knee and at 0.7 × knee");
    expect(page).toContain("| row | 10,000 | 4.20 [");
    expect(page).toContain("| 2 of 3 | 5.50 [");
    expect(page).toContain("| 3 of 3 | 1.31× |");
    expect(page).toContain("At the knee: 0 of 1 rows counted every round");
    expect(page).toContain("At 0.7 × knee: 1 of 1 rows counted every round");
  });
});
