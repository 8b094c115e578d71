import { join } from "node:path";
import { readResults } from "../results/files.ts";
import type { BenchResults, ModelAloneRun, ModelRecord, RunResult } from "../results/types.ts";
import { standings } from "../rounds/standing.ts";
import { countingRun, resultsOf } from "./__fixtures__/counting-run.ts";
import { renderPage } from "./render.ts";
import { pairChanges, twoModelsSection } from "./two-models.ts";

const TINY: ModelRecord = { name: "risk_mlp", hidden: [16], multiplyAddsPerRecord: 80, weightsSha256: "t" };
const WIDE: ModelRecord = { name: "risk_mlp_wide", hidden: [144, 144], multiplyAddsPerRecord: 21_456, weightsSha256: "w" };

/** One counting run a round at 10,000/s with these µs, round 1 first. */
const rounds = (product: string, micros: number[], extra: Partial<RunResult> = {}): RunResult[] =>
  micros.map((m, i) => countingRun(product, 10_000, m, { round: i + 1, ...extra }));

/** The model alone in three rounds: torch at 10,000 a call (confluent-kafka, bytewax, flink) and at one a call (quix). */
const modelAlone = (model: string, batched: number, single: number): ModelAloneRun[] =>
  [1, 2, 3].map((round) => ({
    round,
    startedAt: "2026-12-05T06:00:00.000Z",
    model,
    versions: { torch: "1.13.1" },
    shapes: [
      { runtime: "torch", records: 10_000, usPerRecord: [batched], usedBy: ["bytewax", "confluent-kafka", "flink"] },
      { runtime: "torch", records: 1, usPerRecord: [single], usedBy: ["quix"] },
    ],
  }));

const sitting = (model: ModelRecord, runs: RunResult[], alone: ModelAloneRun[]): BenchResults => ({ ...resultsOf(runs), model, modelAlone: alone });

// Under the tiny model confluent-kafka is cheaper than bytewax and flink; under the wide one bytewax is cheaper than confluent-kafka, and
// flink costs what confluent-kafka does.
const tiny = sitting(TINY, [
  ...rounds("node-passthrough", [6, 6.2, 6.1], { passthrough: true }),
  ...rounds("confluent-kafka", [7, 7.2, 6.9]),
  ...rounds("bytewax", [10, 10.2, 10.1]),
  ...rounds("flink", [12, 12.3, 12.1]),
  ...rounds("quix", [50, 52, 49]),
], modelAlone("risk_mlp", 0.05, 12));
const wide = sitting(WIDE, [
  ...rounds("node-passthrough", [6, 6.1, 6.2], { passthrough: true }),
  ...rounds("confluent-kafka", [16, 16.5, 15.8]),
  ...rounds("bytewax", [14, 14.2, 14.1]),
  ...rounds("flink", [16.1, 16.4, 15.9]),
  ...rounds("quix", [75, 78, 74]),
], modelAlone("risk_mlp_wide", 9.1, 26));

describe("two models side by side", () => {
  it("sorts every pair ranked under both: kept, tied, reversed, or told apart only under the heavier model", () => {
    const changes = pairChanges(standings(tiny), standings(wide));
    expect(changes.reversed).toEqual([["confluent-kafka", "bytewax"]]);
    expect(changes.tied).toEqual([["confluent-kafka", "flink"]]);
    expect(changes.kept).toContainEqual(["node-passthrough", "confluent-kafka"]);
    expect(changes.kept).toContainEqual(["flink", "quix"]);
    expect(changes.separated).toEqual([]);
    expect(changes.kept.length + changes.tied.length + changes.reversed.length).toBe(10);
  });

  it("gives each row its figure and rank under each model, and splits it into the model alone at its call shape and the framework", () => {
    const text = twoModelsSection(tiny, wide).join("\n");
    expect(text).toContain("## Two models: risk_mlp and risk_mlp_wide");
    expect(text).toMatch(/^\| confluent-kafka \| torch, 10,000 a call \| 7\.00 \[[\d.–]+\] \| 2 \| 16\.00 \[[\d.–]+\] \| 3–4 \| 10,000 → 10,000 \| /m);
    expect(text).toContain("| 0.05 → 9.10 | 6.95 → 6.90 | 99 % → 43 % |");
    expect(text).toMatch(/^\| quix \| torch, 1 a call \| .* \| 12\.00 → 26\.00 \| 38\.00 → 49\.00 \| 76 % → 65 % \|$/m);
    expect(text).toMatch(/^\| node-passthrough \| – \| 6\.10 .* \| – → – \| – → – \| – → – \|$/m);
  });

  it("says in one paragraph what changed, from the pairs and the figures above it", () => {
    const text = twoModelsSection(tiny, wide).join("\n");
    expect(text).toContain(
      "What changed: of the pairs of rows ranked under both models, 10 are ranked apart under risk_mlp; under risk_mlp_wide 8 keep their order, 1 is " +
        "no longer told apart and 1 reverses (confluent-kafka was cheaper than, now dearer than bytewax); 0 pairs not told apart under risk_mlp are " +
        "ranked apart under risk_mlp_wide.",
    );
    expect(text).toContain(
      "The dearest scoring row costs 7.1× the cheapest under risk_mlp (quix over confluent-kafka) and 5.3× under risk_mlp_wide (quix over bytewax).",
    );
  });

  it("reads lighter → heavier whichever model the page's body is, and says which rows were not ranked under a model", () => {
    const kept = wide.runs.filter((r) => r.product !== "flink" && r.product !== "quix");
    const lost = { ...sitting(WIDE, [...kept, countingRun("flink", 10_000, 14, { round: 1 })], wide.modelAlone ?? []), sweeps: [{ product: "quix" }] };
    const text = twoModelsSection(lost as BenchResults, tiny).join("\n");
    expect(text).toMatch(/^\| quix \| torch, 1 a call \| 50\.00 \[[\d.–]+\] \| 5 \| not ranked: its knee search found no knee \| – \|/m);
    expect(text).toContain("## Two models: risk_mlp and risk_mlp_wide");
    expect(text).toMatch(/^\| flink \| torch, 10,000 a call \| 12\.10 \[[\d.–]+\] \| \S+ \| not ranked \(1 of 1 rounds counting\) \| – \|/m);
  });

  it("sits on the page right after the answer when render is given the other model's results", () => {
    const committed = readResults([join(import.meta.dirname, "__fixtures__", "results.json")]);
    const page = renderPage(committed, { otherModel: wide });
    const at = (heading: string): number => page.indexOf(heading);
    expect(at("## Two models: risk_mlp and risk_mlp_wide")).toBeGreaterThan(0);
    expect(at("## Two models")).toBeLessThan(at("## Bench characteristics"));
    expect(renderPage(committed)).not.toContain("## Two models");
  });
});
