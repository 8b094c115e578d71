import { emptyCounts } from "@bench/core";
import type { BenchResults, ModelAloneRun, ProfileResult } from "../results/types.ts";
import { countingRun, resultsOf } from "./__fixtures__/counting-run.ts";
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

/** The same timing as the runner writes it now: CPython's shapes marked, and kafka-streams timed in the JVM. */
const ownRuntimes = (round: number, torch10k: number[], jvm1: number[]): ModelAloneRun => ({
  ...timing(round, torch10k, []),
  shapes: [
    { runtime: "torch", records: 10_000, usPerRecord: torch10k, usedBy: ["confluent-kafka"], host: "cpython" },
    { runtime: "onnxruntime", records: 1, usPerRecord: [5.0, 5.1], usedBy: [], host: "cpython" },
    { runtime: "onnxruntime", records: 1, usPerRecord: jvm1, usedBy: ["kafka-streams"], host: "jvm", versions: { onnxruntime: "1.29.0", java: "17" } },
  ],
  notTimed: [{ product: "rust", host: "rust", reason: "cargo build of the Rust app failed" }],
});

const runs = [
  countingRun("confluent-kafka", 50_000, 16.1),
  countingRun("kafka-streams", 50_000, 21.0, { versions: { "kafka-streams": "4.1.1", java: "17" } }),
  countingRun("rust", 50_000, 3.0, { versions: { ort: "2.0.0-rc.15", rustc: "1.95.0" } }),
];

function withModelCall(micros: number, window = 16.1, profiled = 16.5): ProfileResult {
  return {
    seconds: 10, consumedPerSec: 50_000, cpuAvg: 80,
    shares: { ...emptyCounts(), model: micros / profiled }, microsPerRecord: { ...emptyCounts(), model: micros },
    processes: [], overhead: { profilerCpuPercent: 10, cpuMicrosPerRecordWindow: window, cpuMicrosPerRecordProfiled: profiled },
  };
}

describe("the model alone on the page", () => {
  const results: BenchResults = {
    ...resultsOf(runs),
    modelAlone: [timing(1, [9.0, 9.2, 8.8], [7.0, 7.1]), timing(2, [9.4, 9.6, 9.5], [6.9, 7.0]), timing(3, [9.1, 9.0, 9.2], [7.2, 7.1])],
  };

  it("takes each round's median of its repetitions and gives each shape the median over rounds with its interval", () => {
    const [torch, ort] = shapeFigures(results);
    expect(torch?.host).toBe("cpython");
    expect(torch?.interval.median).toBeCloseTo(9.1, 6);
    expect(torch?.interval.n).toBe(3);
    expect(torch?.interval.low).toBeLessThan(9.0);
    expect(torch?.interval.high).toBeGreaterThan(9.5);
    expect(ort?.usedBy).toEqual(["kafka-streams"]);
  });

  const ranked = new Map([["confluent-kafka", figure(16.1)], ["kafka-streams", figure(21.0)], ["rust", figure(3.0)]]);

  it("splits a ranked row's cost into the model at its own call shape and the framework around it", () => {
    const text = modelAloneSection(results, ranked).join("\n");
    expect(text).toContain("| confluent-kafka | torch in CPython, 10,000 a call | 16.10 | 9.10 | 7.00 | 43 % | no profile |");
  });

  it("borrows no other runtime's figure: a JVM row timed in CPython only says it was not timed in its own runtime", () => {
    const text = modelAloneSection(results, ranked).join("\n");
    const line = text.split("\n").find((l) => l.startsWith("| kafka-streams |")) ?? "";
    expect(line).toContain("| the JVM | 21.00 | not timed in its own runtime (the JVM): these results timed the model alone in CPython only;");
    expect(line).not.toContain("7.05");
  });

  it("splits a row by the model timed in its own runtime, and names why a row's runtime could not be timed", () => {
    const own: BenchResults = { ...resultsOf(runs), modelAlone: [ownRuntimes(1, [9.0], [0.7, 0.8]), ownRuntimes(2, [9.2], [0.8, 0.9])] };
    const text = modelAloneSection(own, ranked).join("\n");
    expect(text).toMatch(/\| kafka-streams \| onnxruntime in the JVM, 1 a call \| 21\.00 \| 0\.80 \| 20\.20 \| 96 % \|/);
    expect(text).toContain("| onnxruntime | the JVM (onnxruntime 1.29.0, java 17) | 1 |");
    expect(text).toContain("not timed in its own runtime (Rust (ort crate)): cargo build of the Rust app failed");
  });

  it("checks the split against the row's own profile, and says which it shows when they disagree", () => {
    const agreeing = { ...results, runs: [countingRun("confluent-kafka", 50_000, 16.1, { profile: withModelCall(9.15) })] };
    expect(modelAloneSection(agreeing, ranked).join("\n")).toContain("| 43 % | 9.15: agrees |");
    const disagreeing = { ...results, runs: [countingRun("confluent-kafka", 50_000, 16.1, { profile: withModelCall(0.72) })] };
    const text = modelAloneSection(disagreeing, ranked).join("\n");
    expect(text).toContain("| 43 % | 0.72: disagrees |");
    expect(text).toContain("- confluent-kafka: its profile puts the model call at 0.72 µs a record, outside the model alone's");
    expect(text).toContain("The split shows the model alone");
    const perturbed = { ...results, runs: [countingRun("confluent-kafka", 50_000, 16.1, { profile: withModelCall(0.72, 10, 30) })] };
    expect(modelAloneSection(perturbed, ranked).join("\n")).toContain("| 43 % | profile perturbed (not compared) |");
  });

  it("says, beside a JVM row's disagreement, that JFR's samples cannot see the native call", () => {
    const own: BenchResults = {
      ...resultsOf([countingRun("kafka-streams", 50_000, 21.0, { versions: { "kafka-streams": "4.1.1", java: "17" }, profile: withModelCall(0.72) })]),
      modelAlone: [ownRuntimes(1, [9.0], [9.8, 10.1]), ownRuntimes(2, [9.2], [10.0, 10.3])],
    };
    const text = modelAloneSection(own, ranked).join("\n");
    expect(text).toContain("- kafka-streams: its profile puts the model call at 0.72 µs a record, outside the model alone's");
    expect(text).toContain("JFR's execution samples skip a thread while it runs native code");
    // A CPython row's disagreement carries no such caveat.
    const cpython = { ...results, runs: [countingRun("confluent-kafka", 50_000, 16.1, { profile: withModelCall(0.72) })] };
    expect(modelAloneSection(cpython, ranked).join("\n")).not.toContain("JFR");
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
