import { countingRun, resultsOf } from "./__fixtures__/counting-run.ts";
import type { BenchResults, RunResult } from "../results/types.ts";
import { answerSection, rankRows } from "./answer.ts";
import { budgetLine, roundsSection } from "./rounds.ts";
import { SPEED_INDEX_VERSION } from "../run/speed-index.ts";

const rounds = (product: string, micros: number[]): RunResult[] => micros.map((m, i) => countingRun(product, 10_000, m, { round: i + 1 }));

describe("the ranking over rounds", () => {
  const runs = [
    ...rounds("cheap", [5, 5.6, 5.5]), ...rounds("twin-a", [10, 11, 9.6]), ...rounds("twin-b", [10.1, 11.05, 9.65]), ...rounds("dear", [30, 32, 31]),
  ];
  const results: BenchResults = {
    ...resultsOf(runs),
    rounds: {
      budgetSec: 2400,
      spentSec: 2100,
      prepareSec: 180,
      order: [["dear", "cheap", "twin-a", "twin-b"]],
      stoppedBecause: "after 3 rounds every pair of neighbouring rows is told apart or the same",
    },
  };
  const measured = ["cheap", "twin-a", "twin-b", "dear"].map((p) => runs.filter((r) => r.product === p).at(-1) as RunResult);

  it("shares a rank between rows not told apart and gives every figure its interval", () => {
    const text = answerSection(results, measured, []).join("\n");
    expect(text).toContain("How sure:");
    expect(text).toContain("(a moderated t)");
    expect(text).toMatch(/\| 1 \| cheap \| – \| 5\.50 \[[\d.]+–[\d.]+\] \| 3 of 3 \| cheaper than twin-a/);
    expect(text).toMatch(/\| 2–3 \| twin-a \| – \| 10\.00 \[[\d.]+–[\d.]+\] \| 3 of 3 \| the same as twin-b \(×1\.0\d/);
    expect(text).toMatch(/\| 2–3 \| twin-b \|/);
    expect(text).toMatch(/\| 4 \| dear \|/);
    expect(text).toContain("2 of 4 rows do here");
    expect(text).toContain("not where a later sitting lands");
  });

  it("ranks by the rounds' median, not by the last run", () => {
    expect(rankRows(results, measured).map((r) => [r.run.product, r.micros.median])).toEqual([
      ["cheap", 5.5],
      ["twin-a", 10],
      ["twin-b", 10.1],
      ["dear", 31],
    ]);
  });

  it("states the budget, what it took, the rounds each row got and why they stopped", () => {
    const line = budgetLine(results).join("\n");
    expect(line).toContain("Budget: 40.0 min for the knee searches and rounds; they took 35.0 min");
    expect(line).toContain("3.0 min, is set-up");
    expect(line).toContain("3 rounds: cheap, twin-a, twin-b, dear");
  });

  it("shows every round, a round that did not keep up with its mark", () => {
    const saturated = countingRun("dear", 10_000, 28, { round: 4 });
    saturated.throughput!.regime = "saturated";
    const text = roundsSection({ ...results, runs: [...runs, saturated] }).join("\n");
    expect(text).toContain("| product | knee/s | round 1 (search) | round 2 | round 3 | round 4 |");
    expect(text).toMatch(/\| dear \| 10,000 \| 30\.00 \| 32\.00 \| 31\.00 \| 28\.00 ⚠ SATURATED \|/);
    expect(text).toContain("Order: round 1: dear, cheap, twin-a, twin-b.");
  });

  it("names the searches' order apart, and no round as the search's, where every round had a session of its own", () => {
    const own: BenchResults = { ...results, rounds: { ...results.rounds!, searchOrder: ["twin-b", "dear", "cheap", "twin-a"] } };
    const text = roundsSection(own).join("\n");
    expect(text).toContain("| product | knee/s | round 1 | round 2 | round 3 |");
    expect(text).toContain("Order: the knee searches: twin-b, dear, cheap, twin-a; round 1: dear, cheap, twin-a, twin-b.");
  });

  it("says where round 1 ran, at the load share", () => {
    const atShare = (r: RunResult): RunResult => ({ ...r, loadShare: 0.7 });
    const base = { ...results, runs: runs.map(atShare), rounds: { ...results.rounds!, loadShare: 0.7 } };
    expect(roundsSection(base).join("\n")).toContain("Round 1 is a window in the knee search's own session");
    const own = roundsSection({ ...base, rounds: { ...base.rounds, searchOrder: ["dear"] } }).join("\n");
    expect(own).toContain("Every round, after the knee searches, starts the product again");
    expect(own).not.toContain("search's own session");
  });

  it("says which rows a round after the always-run ones went to, where the results record how many always ran", () => {
    const atShare = (r: RunResult): RunResult => ({ ...r, loadShare: 0.7 });
    const base = { ...results, runs: runs.map(atShare), rounds: { ...results.rounds!, loadShare: 0.7, searchOrder: ["dear"] } };
    expect(roundsSection(base).join("\n")).not.toContain("make-up");
    const three = roundsSection({ ...base, rounds: { ...base.rounds, alwaysRounds: 3 } }).join("\n");
    expect(three).toContain("Rounds 1–3 ran for every row whatever the budget said. Round 4 ran, whatever the budget said, for every row when");
    expect(three).toContain("median half-width was over ±5 % after them, and otherwise for a row that lost one of them");
    expect(three).toContain("or whose interval was wider than ±10 % (a make-up round)");
  });
});

describe("the Rounds section's units", () => {
  /** A round at 0.7 × knee whose speed index read `speed` before and after it. */
  const at = (micros: number, speed: number, round: number): RunResult => {
    const run = countingRun("row", 10_000, micros, { round, loadShare: 0.7 });
    return { ...run, conditions: { ...run.conditions!, speedIndexBefore: speed, speedIndexAfter: speed, speedIndexVersion: SPEED_INDEX_VERSION } };
  };

  it("says the rounds are raw when the speed index would spread them, as the ranking reads them", () => {
    const text = roundsSection(resultsOf([at(10, 500_000, 1), at(10, 700_000, 2), at(10, 600_000, 3)])).join("\n");
    expect(text).toContain("round by round, raw (as measured");
    expect(text).not.toContain("taken to the sitting's median speed index");
  });

  it("says they are taken to the median speed when that brings them together", () => {
    const text = roundsSection(resultsOf([at(12, 500_000, 1), at(8.57, 700_000, 2), at(10, 600_000, 3)])).join("\n");
    expect(text).toContain("round by round, taken to the sitting's median speed index");
  });
});

describe("two sittings side by side", () => {
  it("says for how many rows the intervals overlap and which pairs flip", async () => {
    const { sittingsAgreement, sittingsSection } = await import("./sittings.ts");
    const at = (generatedAt: string, runs: RunResult[]): BenchResults => ({ ...resultsOf(runs), generatedAt });
    const first = at("2026-12-04T10:00:00Z", [...rounds("a", [5, 5.2, 5.1]), ...rounds("b", [10, 10.3, 10.1]), ...rounds("c", [20, 21, 20.5])]);
    const second = at("2026-12-04T11:00:00Z", [...rounds("a", [5.1, 5.0, 5.2]), ...rounds("b", [30, 31, 30.5]), ...rounds("c", [20, 20.4, 20.2])]);
    const g = sittingsAgreement(first, second);
    expect(g.rows.map((r) => [r.product, r.overlap])).toEqual([["a", true], ["b", false], ["c", true]]);
    expect(g.opposite).toEqual(["b < c"]);
    const text = sittingsSection(first, second).join("\n");
    expect(text).toContain("The intervals overlap for **2 of 3** rows");
    expect(text).toContain("the other the other way: b < c.");
    // Rounds of older results ran at the knee, and the text names where the figures were taken.
    expect(text).toContain("µs CPU per inference at the knee (each sitting's own knee");
    const atShare = (r: BenchResults): BenchResults => ({ ...r, rounds: { ...(r.rounds ?? {}), loadShare: 0.7 } as BenchResults["rounds"] });
    expect(sittingsSection(atShare(first), first).join("\n")).toContain("at 0.7 × knee here and the knee there");
  });

  it("sets each row's knee in both sittings side by side, one search each, leaving a knee gendata bounded out of the ratios", async () => {
    const { kneePairs, sittingsSection } = await import("./sittings.ts");
    const sweep = (product: string, knee: number, saturated?: number) =>
      ({ product, knee, bracket: { keptUp: knee, ...(saturated ? { saturated } : {}) }, confirmed: false, stoppedBecause: "…", steps: [] });
    const at = (generatedAt: string, runs: RunResult[], sweeps: ReturnType<typeof sweep>[]): BenchResults => ({ ...resultsOf(runs), generatedAt, sweeps });
    const runsHere = [...rounds("a", [5, 5.2, 5.1]), ...rounds("b", [10, 10.3, 10.1])];
    const runsThere = [...rounds("a", [5.1, 5.0, 5.2]), ...rounds("b", [10, 10.2, 10.1])];
    const first = at("2026-12-04T10:00:00Z", runsHere, [sweep("a", 97_500, 114_000), sweep("b", 191_000)]);
    const second = at("2026-12-04T11:00:00Z", runsThere, [sweep("a", 124_000, 145_000), sweep("b", 209_000)]);
    expect(kneePairs(first, second)).toEqual([
      { product: "a", here: 97_500, there: 124_000, bounded: false },
      { product: "b", here: 191_000, there: 209_000, bounded: true },
    ]);
    const text = sittingsSection(first, second).join("\n");
    expect(text).toContain("Knees (one search each, so no interval): here ÷ there 0.79–0.79, median 0.79, over the 1 rows whose knee both");
    expect(text).toMatch(/\| a \| .* \| 97,500 ÷ 124,000 = 0\.79 \|/);
    expect(text).toMatch(/\| b \| .* \| ≥ 191,000 ÷ 209,000 \|/);
    expect(sittingsSection({ ...first, sweeps: [] }, second).join("\n")).not.toContain("knee here ÷ there");
  });

  it("judges no overlap for a row with one counting round in either sitting: a point has no interval", async () => {
    const { sittingsAgreement, sittingsSection } = await import("./sittings.ts");
    const at = (generatedAt: string, runs: RunResult[]): BenchResults => ({ ...resultsOf(runs), generatedAt });
    const first = at("2026-12-04T10:00:00Z", [...rounds("a", [5, 5.2, 5.1]), ...rounds("d", [12])]);
    const second = at("2026-12-04T11:00:00Z", [...rounds("a", [5.1, 5.0, 5.2]), ...rounds("d", [12.4])]);
    expect(sittingsAgreement(first, second).rows.map((r) => [r.product, r.overlap])).toEqual([["a", true], ["d", undefined]]);
    const text = sittingsSection(first, second).join("\n");
    expect(text).toContain("The intervals overlap for **1 of 1** rows with an interval in both");
    expect(text).toMatch(/\| d \| 12\.00 .*\| – \(no interval\) \|/);
  });

  it("compares the rows again at the reference speed, which takes out a host that ran faster in one sitting", async () => {
    const { sittingsAgreement, sittingsSection } = await import("./sittings.ts");
    const { SPEED_INDEX_VERSION } = await import("../run/speed-index.ts");
    const at = (generatedAt: string, speed: number, micros: Record<string, number[]>): BenchResults => {
      const conditions = { speedIndexBefore: speed, speedIndexAfter: speed, speedIndexVersion: SPEED_INDEX_VERSION, foreignCpuAvg: 1, foreignCpuMax: 2,
        stealAvg: 0, noisy: false, noisyBecause: [] };
      const runs = Object.entries(micros).flatMap(([p, m]) => rounds(p, m).map((r) => ({ ...r, conditions })));
      return { ...resultsOf(runs), generatedAt };
    };
    // The second sitting's host ran a fifth faster: every row's raw µs a sixth lower, the same work at the reference speed.
    const first = at("2026-12-04T10:00:00Z", 500_000, { a: [6, 6.1, 5.9], b: [12, 12.2, 11.9] });
    const second = at("2026-12-04T11:00:00Z", 600_000, { a: [5, 5.1, 4.9], b: [10, 10.1, 9.9] });
    const g = sittingsAgreement(first, second);
    expect(g.rows.map((r) => r.overlap)).toEqual([false, false]);
    expect(g.atReference?.rows.map((r) => r.overlap)).toEqual([true, true]);
    expect(g.atReference?.speedRatio).toBeCloseTo(500 / 600, 6);
    const text = sittingsSection(first, second).join("\n");
    expect(text).toContain("The intervals overlap for **0 of 2** rows");
    expect(text).toContain("median speed index is 0.833 of the other's; at the reference speed");
    expect(text).toContain("the intervals overlap for **2 of 2** rows, with median half-widths");
  });
});

