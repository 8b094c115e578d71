import type { BenchResults, ModelAloneRun } from "../results/types.ts";
import { resultsOf } from "./__fixtures__/counting-run.ts";
import type { RankedFigure } from "./framework-adds.ts";
import { modelAloneSection, shapeFigures } from "./model-alone.ts";

const timing = (round: number, torch10k: number[], ort1: number[]): ModelAloneRun => ({
  round,
  startedAt: "2026-12-05T06:00:00.000Z",
  model: "risk_mlp_wide",
  versions: { torch: "1.13.1", onnxruntime: "1.31.1" },
  shapes: [
    { runtime: "torch", records: 10_000, usPerRecord: torch10k, usedBy: ["confluent-kafka"] },
    { runtime: "onnxruntime", records: 1, usPerRecord: ort1, usedBy: ["kafka-streams"] },
  ],
});

const figure = (micros: number): RankedFigure => ({ rate: 50_000, micros, runs: 3, startedAt: "2026-12-05T06:00:00.000Z" });

describe("the model alone on the page", () => {
  const results: BenchResults = {
    ...resultsOf([]),
    modelAlone: [timing(1, [9.0, 9.2, 8.8], [7.0, 7.1]), timing(2, [9.4, 9.6, 9.5], [6.9, 7.0]), timing(3, [9.1, 9.0, 9.2], [7.2, 7.1])],
  };

  it("takes each round's median of its repetitions and gives each shape the median over rounds with its interval", () => {
    const [torch, ort] = shapeFigures(results);
    expect(torch?.interval.median).toBeCloseTo(9.1, 6);
    expect(torch?.interval.n).toBe(3);
    expect(torch?.interval.low).toBeLessThan(9.0);
    expect(torch?.interval.high).toBeGreaterThan(9.5);
    expect(ort?.usedBy).toEqual(["kafka-streams"]);
  });

  it("splits a ranked row's cost into the model at its own call shape and the framework around it", () => {
    const text = modelAloneSection(results, new Map([["confluent-kafka", figure(16.1)], ["kafka-streams", figure(21.0)]])).join("\n");
    expect(text).toContain("| confluent-kafka | torch, 10,000 a call | 16.10 | 9.10 | 7.00 | 43 % |");
    expect(text).toMatch(/\| kafka-streams \| onnxruntime, 1 a call \| 21\.00 \| 7\.05 \| 13\.95 \| 66 % \|/);
  });

  it("says why the model alone was not timed", () => {
    const text = modelAloneSection({ ...resultsOf([]), modelAloneNotRun: "the venv cannot import onnxruntime" }, new Map()).join("\n");
    expect(text).toContain("Not timed here: the venv cannot import onnxruntime.");
  });
});

describe("the page's words about the model", () => {
  it("keep the seed's text for the seed's model and name the heavier one's shape and size", async () => {
    const { intro, characteristics } = await import("./prose.ts");
    const wide = { name: "risk_mlp_wide", hidden: [144, 144], multiplyAddsPerRecord: 21_456, weightsSha256: "x" };
    expect(intro()).toContain("the SAME frozen 4-16-1 PyTorch MLP");
    expect(intro({ ...wide, name: "risk_mlp", hidden: [16], multiplyAddsPerRecord: 80 })).toBe(intro());
    expect(intro(wide)).toContain("the SAME frozen 4-144-144-1 PyTorch MLP (risk_mlp_wide, 21,456 multiply-adds a record;");
    expect(intro(wide)).not.toContain("deliberately tiny so");
    const network = "fed to a frozen 4-144-144-1 MLP (Linear/ReLU for each hidden layer, then Linear/Sigmoid; risk_mlp_wide) → risk.";
    expect(characteristics(wide)).toContain(network);
  });
});
