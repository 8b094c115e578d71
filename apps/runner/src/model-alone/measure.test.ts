import { parseModelAlone } from "./measure.ts";

const shapes = [
  { runtime: "torch" as const, records: 1 },
  { runtime: "onnxruntime" as const, records: 10_000 },
];
const line = (over: object = {}): string =>
  JSON.stringify({
    model: "risk_mlp_wide",
    versions: { torch: "1.13.1", onnxruntime: "1.31.1" },
    shapes: [
      { runtime: "torch", records: 1, usPerRecord: [30.1, 29.8, 31.0] },
      { runtime: "onnxruntime", records: 10_000, usPerRecord: [9.1, 9.3, 9.0] },
    ],
    ...over,
  });

describe("parseModelAlone", () => {
  it("keeps the figures of every shape asked, from the last line", () => {
    const kept = parseModelAlone(`torch warming\n${line()}\n`, "risk_mlp_wide", shapes);
    expect(kept.shapes).toEqual([
      { runtime: "torch", records: 1, usPerRecord: [30.1, 29.8, 31.0] },
      { runtime: "onnxruntime", records: 10_000, usPerRecord: [9.1, 9.3, 9.0] },
    ]);
    expect(kept.versions).toEqual({ torch: "1.13.1", onnxruntime: "1.31.1" });
  });

  it("refuses another model, a missing shape, a figure that is no positive number, and a line that is no JSON", () => {
    expect(() => parseModelAlone(line(), "risk_mlp", shapes)).toThrow("timed risk_mlp_wide, not risk_mlp");
    expect(() => parseModelAlone(line({ shapes: [] }), "risk_mlp_wide", shapes)).toThrow("no positive figures for torch:1");
    const zero = line({ shapes: [{ runtime: "torch", records: 1, usPerRecord: [0] }, { runtime: "onnxruntime", records: 10_000, usPerRecord: [9] }] });
    expect(() => parseModelAlone(zero, "risk_mlp_wide", shapes)).toThrow("no positive figures for torch:1");
    expect(() => parseModelAlone("Traceback (most recent call last):", "risk_mlp_wide", shapes)).toThrow("printed no JSON line");
  });
});
