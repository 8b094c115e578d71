import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { BenchResults } from "../results/types.ts";
import { agreementSection, rowAgreements } from "./agreement.ts";

const fixture = (name: string): BenchResults => JSON.parse(readFileSync(join(import.meta.dirname, "__fixtures__", name), "utf8")) as BenchResults;
const fast = fixture("agreement-fast.json");
const sweep = fixture("agreement-sweep.json");

describe("the fast knee against the sweep", () => {
  const rows = rowAgreements(fast, sweep);
  const row = (product: string) => rows.find((r) => r.product === product);

  it("judges the knee by the sweep's bisection step at its knee", () => {
    // node: sweep knee 100k, saturated at 120k -> a 20k step; the fast 86.4k is within it.
    expect(row("node")).toMatchObject({ fastKnee: 86_400, sweepKnee: 100_000, sweepStep: 20_000, kneeAgrees: true });
    // faststream: saturated at 50k above a 40k knee -> a 10k step.
    expect(row("faststream")).toMatchObject({ sweepStep: 10_000, kneeAgrees: true });
  });

  it("compares µs per inference at each knee from the runs that count there (a noisy repeat does not)", () => {
    expect(row("node")?.fastMicros).toBeCloseTo(9.55, 9);
    expect(row("node")?.sweepMicros).toBeCloseTo(9.3, 9);
    expect(row("node")?.costAgrees).toBe(true);
    expect(row("faststream")?.costRatio).toBeCloseTo(24 / 22, 9);
    expect(row("faststream")?.costAgrees).toBe(false);
  });

  it("sets the machine's speed beside the µs: the speed ratio at the knees and the µs ratio at the reference speed", () => {
    // faststream's fast runs read a speed index of 520,000, the sweep's 640,000: 9 % dearer raw, 11 % cheaper and an 18 % higher knee at the reference speed
    expect(row("faststream")?.speedRatio).toBeCloseTo(520 / 640, 9);
    expect(row("faststream")?.refCostRatio).toBeCloseTo((24 / 22) * (520 / 640), 9);
    expect(row("faststream")?.refKneeRatio).toBeCloseTo((38_500 / 520) / (40_000 / 640), 9);
    // runs read by an older speed index give no speed figure
    expect(row("node")?.speedRatio).toBeUndefined();
  });

  it("sets each search's own repeats at its knee beside the µs: the dearest run ÷ the cheapest, less 1", () => {
    // node: fast 9.6 and 9.5 (the noisy 12.0 does not count), sweep 9.4 and 9.2
    expect(row("node")?.fastRepeatSpread).toBeCloseTo(9.6 / 9.5 - 1, 9);
    expect(row("node")?.sweepRepeatSpread).toBeCloseTo(9.4 / 9.2 - 1, 9);
    // one run at the sweep's faststream knee: no spread
    expect(row("faststream")?.sweepRepeatSpread).toBeUndefined();
    const page = agreementSection(fast, sweep).join("\n");
    expect(page).toContain("| 1.1% / 2.2% |");
    expect(page).toContain(
      "the fast search ran 2 pairs of steps at one rate; one kept up and the other saturated in 0; no pair kept up with a µs figure on both; the sweep " +
        "search ran 3 pairs",
    );
  });

  it("names the two sides by their start times when both are the same search (a control)", () => {
    const again: BenchResults = { ...fast, generatedAt: "2026-12-03T23:50:00.000Z" };
    const page = agreementSection(again, fast).join("\n");
    expect(page).toContain("## A control: the main command against itself");
    expect(page).toContain(`started 23:50 and ${fast.generatedAt.slice(11, 16)} UTC`);
    expect(page).toContain(`| product | knee fast 23:50 /s | knee fast ${fast.generatedAt.slice(11, 16)} /s |`);
    expect(page).toContain("| node | 86,400 | 86,400 |");
  });

  it("leaves a row without a fast knee unjudged, and says how many agree", () => {
    expect(row("spark")).toEqual({ product: "spark", sweepKnee: 80_000, sweepStep: 20_000, sweepMicros: 15 });
    const page = agreementSection(fast, sweep).join("\n");
    expect(page).toContain("| spark | – | 80,000 | 20,000 | – | – | 15.0 | – | – | – / – | – | – | – |");
    expect(page).toContain("| faststream | 38,500 | 40,000 | 10,000 | yes | 24.0 | 22.0 | 1.091 | **no** | 0.8% / – | 0.813 | 1.185 | 0.886 |");
    expect(page).toContain("Both agree for 1 of 2 rows judged (1 could not be judged).");
  });
});
