/**
 * What the Pathway app is started with, besides the bench's own settings: Pathway's worker
 * threads, the file it keeps its consumed count in, and the folder of its persisted state.
 */
import { join } from "node:path";
import { benchAppEnv, type RunContext } from "@bench/core";

export const CONSUMED_FILE = "pathway-consumed.txt";

/** How the page says consumed is read: the file by its name, so the page names no path of the machine that ran it. */
export const CONSUMED_DESCRIBE = `the input offset the app's scoring UDF has gone through, rewritten each second to ${CONSUMED_FILE} in the run's folder`;

/** Pathway's persisted state, in the run's state folder, which a restart within the run is handed again. */
export function persistenceDir(ctx: Pick<RunContext, "stateDir">): string {
  return join(ctx.stateDir, "pathway-persistence");
}

export function consumedFile(ctx: Pick<RunContext, "runDir">): string {
  return join(ctx.runDir, CONSUMED_FILE);
}

export type AppContext = Parameters<typeof benchAppEnv>[0] & Pick<RunContext, "runDir" | "stateDir">;

export function pathwayAppEnv(ctx: AppContext): Record<string, string> {
  return {
    ...benchAppEnv(ctx),
    // --parallelism is Pathway's own mechanism: engine worker threads in the one process.
    PATHWAY_THREADS: String(Math.max(1, ctx.parallelism)),
    BENCH_PATHWAY_CONSUMED_FILE: consumedFile(ctx),
    BENCH_PATHWAY_STATE_DIR: persistenceDir(ctx),
  };
}
