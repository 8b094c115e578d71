/**
 * The call shapes the model alone is timed at: one record a call in each runtime (the floor of a
 * call's fixed cost), and every chosen row's own shape (Product.modelCall).
 */
import type { ModelCall, Product } from "@bench/core";

export const RUNTIMES: ReadonlyArray<ModelCall["runtime"]> = ["torch", "onnxruntime"];

/** How model_alone.py names a shape on its command line and in its output. */
export const shapeKey = (shape: ModelCall): string => `${shape.runtime}:${shape.records}`;

export function callShapes(products: readonly Product[]): ModelCall[] {
  const shapes = new Map<string, ModelCall>();
  const add = (shape: ModelCall): void => void shapes.set(shapeKey(shape), { runtime: shape.runtime, records: shape.records });
  for (const runtime of RUNTIMES) add({ runtime, records: 1 });
  for (const product of products) if (product.modelCall) add(product.modelCall);
  return [...shapes.values()].sort((a, b) => RUNTIMES.indexOf(a.runtime) - RUNTIMES.indexOf(b.runtime) || a.records - b.records);
}
