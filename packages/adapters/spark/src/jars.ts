/**
 * The jars handed to Spark with `spark.jars`: the connector and its runtime dependencies as
 * Maven resolved them (core's resolveJars), less every artifact pyspark's own jars/ folder
 * already ships. Maven resolves the connector's declared versions (scala-library 2.13.15,
 * slf4j-api 1.7, an older lz4-java...); a second copy of a class Spark already loads is at best
 * dead weight and at worst a clash, so Spark's own copy is the one that runs.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";

/** "kafka-clients-3.9.2.jar" -> "kafka-clients"; "scala-library-2.13.18.jar" -> "scala-library". */
export function artifactName(jar: string): string {
  // The version is the last dash-separated part starting with a digit, with a qualifier (-jre).
  return jar.replace(/\.jar$/, "").replace(/-\d+(?:\.\d+)*(?:[.-][A-Za-z]\w*)?$/, "");
}

/** The resolved jars whose artifact Spark does not already ship, sorted. */
export function jarsToAdd(resolved: readonly string[], sparkShips: readonly string[]): string[] {
  const shipped = new Set(sparkShips.filter((j) => j.endsWith(".jar")).map(artifactName));
  return resolved.filter((j) => j.endsWith(".jar") && !shipped.has(artifactName(j))).sort();
}

/** Full paths of the jars for spark.jars, from the resolved folder and pyspark's jars/ folder. */
export function sparkJarPaths(libsDir: string, pysparkJarsDir: string): string[] {
  return jarsToAdd(readdirSync(libsDir), readdirSync(pysparkJarsDir)).map((j) => join(libsDir, j));
}
