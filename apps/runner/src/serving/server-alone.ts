/**
 * The model server alone: the bench's own server called back to back by a client in the runner (no
 * stream processor, no broker), at each call shape the served rows use. The CPU its process tree
 * spends over the records it scored is its own cost per record, which the page sets beside what it
 * cost inside each row's rounds. It is timed after each round, as the model alone is, so its
 * figures spread over the sitting as the rows' do. The client's CPU is the runner's and not counted.
 */
import { CLOCK_TICKS, processTree, type FeatureVector, type ModelCard, type Product } from "@bench/core";
import { ServedModel } from "@bench/core/served";
import { median } from "../metrics/stats.ts";
import type { AfterRound } from "../model-alone/rounds.ts";
import type { BenchResults, ServerAloneRun } from "../results/types.ts";
import type { ServingTarget } from "./target.ts";

/** Repetitions of each shape after a round: the round's figure is their median. */
export const SERVER_ALONE_REPS = 3;

/** A repetition calls for at least this long: a busy server's 100 of /proc's 10 ms ticks, so one tick is about 1 % of it. */
export const SERVER_ALONE_REP_MS = 1_000;

/** Calls before a shape's first repetition: the server's first answers at a new shape (allocations, a first run at it) are not its steady cost. */
const WARM_CALLS = 5;

export interface ServedShape {
  records: number;
  usedBy: string[];
}

/** The served rows' call shapes: the most records each calls with (its modelCall), and the rows that call so. */
export function servedShapes(products: readonly Product[]): ServedShape[] {
  const byRecords = new Map<number, string[]>();
  for (const p of products) if (p.modelCall) byRecords.set(p.modelCall.records, [...(byRecords.get(p.modelCall.records) ?? []), p.id]);
  return [...byRecords.entries()].sort(([a], [b]) => a - b).map(([records, usedBy]) => ({ records, usedBy }));
}

/** A row-major [records, 4] batch of the card's probe rows, cycled: features as the rows send them. */
export function probeBatch(card: ModelCard, records: number): Float32Array {
  const rows = card.probes.map((p) => p.features);
  if (rows.length === 0) throw new Error(`the model card ${card.name} has no probe rows to call the server with`);
  const batch = new Float32Array(records * 4);
  for (let r = 0; r < records; r++) batch.set(rows[r % rows.length] as FeatureVector, r * 4);
  return batch;
}

/** The CPU ticks of the trees under `roots` now. */
const treeTicks = (roots: readonly number[]): number => processTree(roots).reduce((sum, p) => sum + p.cpuTicks, 0);

/** The server tree's CPU µs per record while `call` (which returns the records it scored) runs back to back for at least `ms`. */
export async function oneRepetition(roots: () => readonly number[], call: () => Promise<number>, ms: number): Promise<number> {
  const [start, before] = [Date.now(), treeTicks(roots())];
  let records = 0;
  // At least one call: a slow tree read must not leave a repetition with no records to divide by.
  do records += await call();
  while (Date.now() - start < ms);
  if (records <= 0) throw new Error("the server's calls scored no records");
  return (((treeTicks(roots()) - before) / CLOCK_TICKS) * 1e6) / records;
}

export interface ServerAloneContext {
  serving: ServingTarget;
  modelsDir: string;
  log(line: string): void;
}

/** Every shape warmed, then timed SERVER_ALONE_REPS times, through one client checked against the card's probes. */
export async function timeServerAlone(ctx: ServerAloneContext, shapes: readonly ServedShape[], round: number): Promise<ServerAloneRun> {
  const served = await ServedModel.connect(ctx.serving.address(), ctx.modelsDir);
  try {
    const run: ServerAloneRun = { round, startedAt: new Date().toISOString(), shapes: [] };
    for (const { records, usedBy } of shapes) {
      const batch = probeBatch(served.card, records);
      const call = async (): Promise<number> => (await served.score(batch)).length;
      for (let i = 0; i < WARM_CALLS; i++) await call();
      const usPerRecord: number[] = [];
      for (let rep = 0; rep < SERVER_ALONE_REPS; rep++) usPerRecord.push(await oneRepetition(() => ctx.serving.rootPids(), call, SERVER_ALONE_REP_MS));
      run.shapes.push({ records, usPerRecord, usedBy });
    }
    return run;
  } finally {
    served.close();
  }
}

/** The timing to run after each round of a bench served by its own server; a failure is kept in `results` and ends the timing, not the bench. */
export function serverAloneRounds(ctx: ServerAloneContext, results: BenchResults): AfterRound {
  let failed = false;
  return async (round, products) => {
    const shapes = servedShapes(products);
    if (failed || shapes.length === 0) return;
    try {
      const run = await timeServerAlone(ctx, shapes, round);
      (results.serverAlone ??= []).push(run);
      ctx.log(`== server alone after round ${round}: ${run.shapes.map((s) => `${s.records} a call ${median(s.usPerRecord).toFixed(3)} µs`).join(", ")}`);
    } catch (error) {
      failed = true;
      results.serverAloneNotRun = `timing it after round ${round} failed: ${(error as Error).message}`;
      ctx.log(`== server alone: ${results.serverAloneNotRun}`);
    }
  };
}
