/** The environment the PyFlink job gets: the bench's settings plus where Flink writes. */
import { join } from "node:path";
import { benchAppEnv, type RunContext } from "@bench/core";

export interface JobPaths {
  /** Checkpoints: in the run's folder, so each run starts clean and leaves them for a look. */
  checkpointDir: string;
  /** Flink's io.tmp.dirs (the Python workers' unpacked environment goes there too). */
  tmpDir: string;
  /** The JVM's own log (FLINK_LOG_DIR); the driver's stdout goes to flink.log beside it. */
  logDir: string;
}

export function jobPaths(runDir: string): JobPaths {
  return { checkpointDir: join(runDir, "checkpoints"), tmpDir: join(runDir, "tmp"), logDir: runDir };
}

export function jobEnv(ctx: Omit<RunContext, "log">, connectorJar: string, javaHome: string): Record<string, string> {
  const paths = jobPaths(ctx.runDir);
  return {
    ...benchAppEnv(ctx),
    BENCH_FLINK_JAR: connectorJar,
    BENCH_CHECKPOINT_DIR: paths.checkpointDir,
    BENCH_TMP_DIR: paths.tmpDir,
    JAVA_HOME: javaHome,
    FLINK_LOG_DIR: paths.logDir,
  };
}
