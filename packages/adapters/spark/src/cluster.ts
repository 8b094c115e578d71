/**
 * Where the Spark row's executors run: `local[N]` in the driver's JVM by default, or a running
 * Spark cluster named by BENCH_SPARK_MASTER (e.g. spark://host:7077). The doctor shows which,
 * and the driver binds to BENCH_SPARK_DRIVER_HOST (default loopback: set it to an address the
 * cluster's executors reach, for a cluster on other machines).
 */
import type { PrerequisiteFound } from "@bench/core";

export const MASTER_VARIABLE = "BENCH_SPARK_MASTER";
export const DRIVER_HOST_VARIABLE = "BENCH_SPARK_DRIVER_HOST";

export interface SparkPlacement {
  /** The cluster's master URL, undefined for local[N]. */
  master?: string;
  driverHost: string;
}

export function sparkPlacement(env: NodeJS.ProcessEnv = process.env): SparkPlacement {
  const master = env[MASTER_VARIABLE]?.trim();
  const driverHost = env[DRIVER_HOST_VARIABLE]?.trim() || "127.0.0.1";
  return master ? { master, driverHost } : { driverHost };
}

/** Never unmet: the doctor's row says where executors will run and how to change it. */
export function placementPrerequisite(env: NodeJS.ProcessEnv = process.env): PrerequisiteFound {
  const { master } = sparkPlacement(env);
  return { name: "Spark master", have: master ?? `local[N] (set ${MASTER_VARIABLE}=spark://host:7077 for a cluster)`, ok: true };
}
