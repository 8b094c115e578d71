import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loadFixtures } from "./fixtures.ts";
import { loadSpellings } from "./spellings.ts";
import { featureMatrix, normalise } from "./features.ts";
import { makeRecord } from "./generator.ts";
import { loadModelCard, ReferenceModel } from "./model.ts";
import { fixturesDir, modelsDir } from "./paths.ts";

describe("the frozen model contract", () => {
  it("the committed ONNX export reproduces the card's probe rows", async () => {
    const model = await ReferenceModel.load(modelsDir());
    const card = model.card;
    expect(card.probes.length).toBeGreaterThanOrEqual(8);
    const got = await model.score(Float32Array.from(card.probes.flatMap((p) => p.features)));
    card.probes.forEach((p, i) => expect(Math.abs((got[i] as number) - p.risk)).toBeLessThanOrEqual(card.tolerance));
  });

  it("the card's probe features are the normaliser's output for their metrics", () => {
    const card = loadModelCard(modelsDir());
    for (const p of card.probes) {
      const m = p.metrics as { latency_ms: number; queue_depth: number; cpu_usage: number; error_count: number };
      normalise(m).forEach((f, i) => expect(Math.fround(f)).toBeCloseTo(p.features[i] as number, 6));
    }
  });

  it("the fixtures are the generator's records with the reference model's risk", async () => {
    const model = await ReferenceModel.load(modelsDir());
    const fixtures = loadFixtures(fixturesDir());
    expect(fixtures).toHaveLength(256);
    fixtures.forEach((f, seq) => expect(f.record).toEqual(makeRecord(42, seq, f.record.ts_ms)));
    const risks = await model.score(featureMatrix(fixtures.map((f) => f.record)));
    fixtures.forEach((f, i) => expect(Math.abs((risks[i] as number) - f.risk)).toBeLessThanOrEqual(1e-6));
    expect(new Set(fixtures.map((f) => f.risk > 0.5)).size).toBe(2); // both classes are present
  });

  it("the spelling fixtures carry the reference model's risk, and a decoy-reading product could not pass them by luck", async () => {
    const model = await ReferenceModel.load(modelsDir());
    const spellings = loadSpellings(fixturesDir());
    const risks = await model.score(Float32Array.from(spellings.flatMap((s) => s.features)));
    spellings.forEach((s, i) => expect(Math.abs((risks[i] as number) - s.risk)).toBeLessThanOrEqual(1e-6));
    const nested = spellings.find((s) => s.name === "nested-decoys-first");
    const decoy = (JSON.parse(nested?.value ?? "{}") as { meta: Parameters<typeof normalise>[0] }).meta;
    const [decoyRisk] = await model.score(Float32Array.from(normalise(decoy)));
    expect(Math.abs((decoyRisk as number) - (nested?.risk ?? 0))).toBeGreaterThan(0.1);
  });

  it("names a weight digest for the committed .pt", () => {
    const card = loadModelCard(modelsDir());
    expect(card.weights_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(createHash("sha256").update(readFileSync(join(modelsDir(), "risk_mlp.pt"))).digest("hex")).toHaveLength(64);
  });
});
