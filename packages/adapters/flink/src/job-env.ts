/** The environment the PyFlink job gets: the bench's settings plus where Flink writes. */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { benchAppEnv, type Guarantee, type RunContext } from "@bench/core";

export interface JobPaths {
  /**
   * Checkpoints. At-least-once: in the run's folder, so each start begins clean from the group's
   * offsets and leaves them for a look. Exactly-once: in the run's state folder, so a restart
   * resumes from the last completed checkpoint, whose state holds the source's offsets and the
   * sink's transactions, as Flink's exactly-once needs.
   */
  checkpointDir: string;
  /** Flink's io.tmp.dirs (the Python workers' unpacked environment goes there too). */
  tmpDir: string;
  /** The JVM's own log (FLINK_LOG_DIR); the driver's stdout goes to flink.log beside it. */
  logDir: string;
}

export function jobPaths(ctx: Pick<RunContext, "runDir" | "stateDir"> & { guarantee?: Guarantee }): JobPaths {
  const checkpointsIn = ctx.guarantee === "exactly-once" ? ctx.stateDir : ctx.runDir;
  return { checkpointDir: join(checkpointsIn, "checkpoints"), tmpDir: join(ctx.runDir, "tmp"), logDir: ctx.runDir };
}

/**
 * The newest completed checkpoint under `checkpointDir` (Flink writes <job id>/chk-<n>/_metadata
 * once a checkpoint completes; a kill -9 can leave a newer chk-<n> without it), or undefined.
 */
export function latestCheckpoint(checkpointDir: string): string | undefined {
  if (!existsSync(checkpointDir)) return undefined;
  const completed = readdirSync(checkpointDir).flatMap((job) => {
    const jobDir = join(checkpointDir, job);
    const chk = existsSync(jobDir) ? readdirSync(jobDir).filter((d) => /^chk-\d+$/.test(d)) : [];
    return chk.filter((d) => existsSync(join(jobDir, d, "_metadata"))).map((d) => ({ path: join(jobDir, d), n: Number(d.slice(4)) }));
  });
  return completed.sort((a, b) => b.n - a.n)[0]?.path;
}

export function jobEnv(ctx: Omit<RunContext, "log">, connectorJar: string, javaHome: string): Record<string, string> {
  const paths = jobPaths(ctx);
  const restoreFrom = ctx.guarantee === "exactly-once" ? latestCheckpoint(paths.checkpointDir) : undefined;
  return {
    ...benchAppEnv(ctx),
    ...(restoreFrom ? { BENCH_RESTORE_FROM: restoreFrom } : {}),
    BENCH_FLINK_JAR: connectorJar,
    BENCH_CHECKPOINT_DIR: paths.checkpointDir,
    BENCH_TMP_DIR: paths.tmpDir,
    JAVA_HOME: javaHome,
    FLINK_LOG_DIR: paths.logDir,
  };
}
