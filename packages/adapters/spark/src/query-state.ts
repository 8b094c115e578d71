/**
 * Where a Spark query keeps what must survive its process: the checkpoint (offset and commit
 * logs) and the progress file the adapter reads as consumed. A restart after a kill -9 (the
 * faults run starts the product again with the same topics and group, logging into another
 * folder) must find the same checkpoint, or the query would start again from the earliest
 * offset; so the folder is named by the run's consumer group, in the row's cache, and a graceful
 * stop removes it.
 */
import { join } from "node:path";
import type { RunContext } from "@bench/core";

export interface QueryState {
  dir: string;
  checkpoint: string;
  progressFile: string;
}

export function queryState(ctx: Pick<RunContext, "cacheDir" | "groupId">): QueryState {
  const dir = join(ctx.cacheDir, "queries", ctx.groupId.replace(/[^A-Za-z0-9._-]/g, "_"));
  return { dir, checkpoint: join(dir, "checkpoint"), progressFile: join(dir, "progress.json") };
}
