/**
 * The model alone in the main command: its environment prepared once with the products (set-up),
 * then timed once after each round, so its figures spread over the sitting as the rows' do and the
 * page can set each row's cost against the model's at the row's own call shape.
 */
import { productCacheDir, repoRoot, type ModelCall, type ModelHost, type Product } from "@bench/core";
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

/** The timings to run after each round, one after the other; undefined when there are none. */
export function inTurn(afters: ReadonlyArray<AfterRound | undefined>): AfterRound | undefined {
  const each = afters.filter((a): a is AfterRound => a !== undefined);
  if (each.length === 0) return undefined;
  return async (round, products) => {
    for (const after of each) await after(round, products);
  };
}

const hostOf = (product: Product): ModelHost => product.modelCall?.host ?? "cpython";

/**
 * Each row whose model runs outside CPython timed in its own runtime at its own shape (its
 * adapter's timeModelAlone); a row that cannot be is listed with why, and borrows no figure.
 */
async function timeInOwnRuntimes(ctx: ModelAloneContext, run: ModelAloneRun, products: readonly Product[]): Promise<void> {
  for (const product of products) {
    const call = product.modelCall as ModelCall;
    const host = hostOf(product);
    const notTimed = (reason: string): void => void (run.notTimed ??= []).push({ product: product.id, host, reason });
    if (product.timeModelAlone === undefined) {
      notTimed(`its adapter has no timer for the model in ${host}`);
      continue;
    }
    try {
      const prepare = { repoRoot: repoRoot(), modelsDir: ctx.modelsDir, cacheDir: productCacheDir(ctx.cacheRoot, product), log: ctx.log };
      const timing = await product.timeModelAlone(prepare, ctx.model);
      run.shapes.push({ ...call, host, usPerRecord: timing.usPerRecord, usedBy: [product.id], versions: timing.versions });
    } catch (error) {
      notTimed((error as Error).message.split("\n")[0] ?? "failed");
    }
  }
}

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
    const inCpython = products.filter((p) => hostOf(p) === "cpython");
    const usedBy = (key: string): string[] => inCpython.filter((p) => p.modelCall && shapeKey(p.modelCall) === key).map((p) => p.id);
    try {
      const run: ModelAloneRun = await timeModelAlone(prepared.env, ctx.model, callShapes(inCpython), round);
      for (const shape of run.shapes) Object.assign(shape, { host: "cpython", usedBy: usedBy(shapeKey(shape)) });
      await timeInOwnRuntimes(ctx, run, products.filter((p) => hostOf(p) !== "cpython"));
      (results.modelAlone ??= []).push(run);
      const figure = (s: ModelAloneRun["shapes"][number]): string => `${s.host}:${shapeKey(s)} ${median(s.usPerRecord).toFixed(3)} µs`;
      ctx.log(`== model alone after round ${round}: ${run.shapes.map(figure).join(", ")}`);
      for (const n of run.notTimed ?? []) ctx.log(`== model alone: ${n.product} not timed in its own runtime (${n.host}): ${n.reason}`);
    } catch (error) {
      failed = true;
      results.modelAloneNotRun = `timing it after round ${round} failed: ${(error as Error).message}`;
      ctx.log(`== model alone: ${results.modelAloneNotRun}`);
    }
  };
}

