/**
 * The model alone for real: the venv (Debian's torch and ONNX Runtime from PyPI) prepared as the
 * main command prepares it, models/model_alone.py timed at the rows' call shapes for both models,
 * and the page's section read from what was timed; and the rows whose model runs outside CPython timed
 * in their own runtime (ONNX Runtime for Java, onnxruntime-node, the ort crate), each from its
 * adapter's cached build. No broker: the model alone reads no records. No figure is asserted: a
 * timing is real when every repetition gave a positive CPU time.
 */
import { cacheRoot, modelsDir, repoRoot, type Product } from "@bench/core";
import type { BenchResults } from "../../src/results/types.ts";
import { modelAloneRounds } from "../../src/model-alone/rounds.ts";
import { modelAloneSection } from "../../src/page/model-alone.ts";
import { countingRun } from "../../src/page/__fixtures__/counting-run.ts";
import { adaptersDir, discoverIn } from "../../src/run/discover.ts";

const rows = [
  { id: "batching", modelCall: { runtime: "torch", records: 1_000 } },
  { id: "per-record", modelCall: { runtime: "onnxruntime", records: 1 } },
  { id: "passthrough" },
] as unknown as Product[];

describe("the model alone", () => {
  it.each(["risk_mlp", "risk_mlp_wide"])("times %s at every row's shape and one record a call, and the page splits a row by it", async (model) => {
    const results = { runs: [countingRun("batching", 1_000, 1_000)] } as unknown as BenchResults;
    const lines: string[] = [];
    const afterRound = await modelAloneRounds({ cacheRoot: cacheRoot(), modelsDir: modelsDir(), model, log: (l) => lines.push(l) }, results);
    expect(results.modelAloneNotRun).toBeUndefined();
    await afterRound?.(1, rows);
    await afterRound?.(2, rows);
    expect(results.modelAloneNotRun).toBeUndefined();
    const runs = results.modelAlone ?? [];
    expect(runs.map((r) => r.round)).toEqual([1, 2]);
    expect(runs[0]?.model).toBe(model);
    expect(runs[0]?.shapes.map((s) => `${s.runtime}:${s.records}:${(s.usedBy ?? []).join("+")}`)).toEqual([
      "torch:1:", "torch:1000:batching", "onnxruntime:1:per-record",
    ]);
    for (const shape of runs.flatMap((r) => r.shapes)) expect(shape.usPerRecord.every((x) => x > 0 && Number.isFinite(x))).toBe(true);
    const text = modelAloneSection(results, new Map([["batching", { rate: 1_000, micros: 1_000, runs: 2, startedAt: "" }]])).join("\n");
    expect(text).toContain(`The model's forward alone (${model};`);
    expect(text).toMatch(/\| batching \| torch in CPython, 1,000 a call \| 1000\.00 \| /);
  }, 600_000);

  it("times each row whose model runs outside CPython in its own runtime, at its own shape, or says why not", async () => {
    const own = (await discoverIn(adaptersDir(repoRoot()))).map((d) => d.product).filter((p) => p.modelCall?.host && p.modelCall.host !== "cpython");
    expect(own.map((p) => `${p.id}:${p.modelCall!.host}`).sort()).toEqual(["kafka-streams:jvm", "node:node", "rust:rust"]);
    const results = { runs: [] } as unknown as BenchResults;
    const lines: string[] = [];
    const afterRound = await modelAloneRounds({ cacheRoot: cacheRoot(), modelsDir: modelsDir(), model: "risk_mlp", log: (l) => lines.push(l) }, results);
    await afterRound?.(1, own);
    const run = results.modelAlone?.[0];
    expect(run?.notTimed ?? []).toEqual([]);
    for (const product of own) {
      const shape = run?.shapes.find((s) => s.host === product.modelCall!.host);
      expect({ id: product.id, shape: shape && `${shape.runtime}:${shape.records}:${(shape.usedBy ?? []).join("+")}` })
        .toEqual({ id: product.id, shape: `${product.modelCall!.runtime}:${product.modelCall!.records}:${product.id}` });
      expect(shape!.usPerRecord.length).toBeGreaterThan(1);
      expect(shape!.usPerRecord.every((x) => x > 0 && Number.isFinite(x))).toBe(true);
      expect(Object.keys(shape!.versions ?? {}).length).toBeGreaterThan(0);
    }
  }, 1_800_000);
});
