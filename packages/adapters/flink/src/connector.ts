/**
 * The Kafka SQL connector jar, fetched once from Maven Central into the cache with Maven's own
 * client (apache-flink's wheels carry Flink itself but no connectors). There is no connector
 * for Flink 2.3 yet, which is why the job stays on 2.2.x.
 */
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";

export const CONNECTOR = { groupId: "org.apache.flink", artifactId: "flink-sql-connector-kafka", version: "5.0.0-2.2" } as const;

export interface Artifact {
  groupId: string;
  artifactId: string;
  version: string;
}

/** The file name Maven's dependency:copy writes for a plain jar artifact. */
export function jarFileName(artifact: Artifact): string {
  return `${artifact.artifactId}-${artifact.version}.jar`;
}

export function coordinates(artifact: Artifact): string {
  return `${artifact.groupId}:${artifact.artifactId}:${artifact.version}`;
}

/** Path of the connector jar in the cache, fetching it first if needed. */
export async function ensureConnectorJar(cacheDir: string, log: (line: string) => void, artifact: Artifact = CONNECTOR): Promise<string> {
  const jarsDir = join(cacheDir, "jars");
  const jar = join(jarsDir, jarFileName(artifact));
  if (existsSync(jar)) return jar;
  // Copy into a scratch folder and rename, so an interrupted fetch never leaves a half jar.
  const scratch = join(jarsDir, `.fetch-${process.pid}`);
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  log(`mvn dependency:copy ${coordinates(artifact)}`);
  const mvn = await execa("mvn", ["-q", "-B", "dependency:copy", `-Dartifact=${coordinates(artifact)}`, `-DoutputDirectory=${scratch}`], {
    reject: false,
    all: true,
  });
  if (mvn.exitCode !== 0) {
    rmSync(scratch, { recursive: true, force: true });
    throw new Error(`mvn dependency:copy ${coordinates(artifact)} failed:\n${String(mvn.all ?? "").split("\n").slice(-15).join("\n")}`);
  }
  renameSync(join(scratch, jarFileName(artifact)), jar);
  rmSync(scratch, { recursive: true, force: true });
  return jar;
}
