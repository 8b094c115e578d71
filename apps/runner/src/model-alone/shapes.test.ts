import type { Product } from "@bench/core";
import { callShapes, shapeKey } from "./shapes.ts";

const row = (id: string, modelCall?: Product["modelCall"]): Product => ({ id, modelCall }) as Product;

describe("callShapes", () => {
  it("times one record a call in each runtime and every row's own shape once, in a stable order", () => {
    const shapes = callShapes([
      row("rust", { runtime: "onnxruntime", records: 10_000 }),
      row("quix", { runtime: "torch", records: 1 }),
      row("confluent-kafka", { runtime: "torch", records: 10_000 }),
      row("bytewax", { runtime: "torch", records: 10_000 }),
      row("node-passthrough"),
    ]);
    expect(shapes.map(shapeKey)).toEqual(["torch:1", "torch:10000", "onnxruntime:1", "onnxruntime:10000"]);
  });
});
