/**
 * Where a Spark query keeps what must survive its process: the checkpoint (offset and commit
 * logs) and the progress file the adapter reads as consumed. They go in the run's state folder
 * (RunContext's stateDir): a restart after a kill -9 (the faults run starts the product again,
 * logging into another folder) is handed the same one and finds the checkpoint, where a fresh
 * folder would start the query again from the earliest offset.
 */
import { join } from "node:path";
import type { RunContext } from "@bench/core";

export interface QueryState {
  dir: string;
  checkpoint: string;
  progressFile: string;
}

export function queryState(ctx: Pick<RunContext, "stateDir">): QueryState {
  const dir = join(ctx.stateDir, "spark-query");
  return { dir, checkpoint: join(dir, "checkpoint"), progressFile: join(dir, "progress.json") };
}
