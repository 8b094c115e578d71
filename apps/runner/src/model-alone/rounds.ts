/**
 * The model alone in the main command: its environment prepared once with the products (set-up),
 * then timed once after each round, so its figures spread over the sitting as the rows' do and the
 * page can set each row's cost against the model's at the row's own call shape.
 */
import type { Product } from "@bench/core";
import type { BenchResults, ModelAloneRun } from "../results/types.ts";
import { prepareModelAlone } from "./env.ts";
import { timeModelAlone } from "./measure.ts";
import { callShapes, shapeKey } from "./shapes.ts";
import { median } from "../metrics/stats.ts";

export interface ModelAloneContext {
  cacheRoot: string;
  modelsDir: string;
  model: string;
  log(line: string): void;
}

/** Times the model alone at the call shapes of `products`, the rows the round measured. */
export type AfterRound = (round: number, products: readonly Product[]) => Promise<void>;

/** The timing to run after each round, or undefined (and the reason kept in `results`) when it cannot run here. */
export async function modelAloneRounds(ctx: ModelAloneContext, results: BenchResults): Promise<AfterRound | undefined> {
  const prepared = await prepareModelAlone(ctx);
  if (!prepared.ok) {
    results.modelAloneNotRun = prepared.reason;
    ctx.log(`== model alone: not timed — ${prepared.reason}`);
    return undefined;
  }
  let failed = false;
  return async (round, products) => {
    if (failed) return;
    const usedBy = (key: string): string[] => products.filter((p) => p.modelCall && shapeKey(p.modelCall) === key).map((p) => p.id);
    try {
      const run: ModelAloneRun = await timeModelAlone(prepared.env, ctx.model, callShapes(products), round);
      for (const shape of run.shapes) shape.usedBy = usedBy(shapeKey(shape));
      (results.modelAlone ??= []).push(run);
      ctx.log(`== model alone after round ${round}: ${run.shapes.map((s) => `${shapeKey(s)} ${median(s.usPerRecord).toFixed(3)} µs`).join(", ")}`);
    } catch (error) {
      failed = true;
      results.modelAloneNotRun = `timing it after round ${round} failed: ${(error as Error).message}`;
      ctx.log(`== model alone: ${results.modelAloneNotRun}`);
    }
  };
}

