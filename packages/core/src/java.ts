/**
 * The JVM the Java-based rows run on (Flink's MiniCluster, Kafka Streams, Spark): Debian 12's
 * OpenJDK 17, at a fixed JAVA_HOME so each row starts the same JVM the doctor checked.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { PrerequisiteFound, PrerequisiteMissing } from "./adapter.ts";
import { execa } from "execa";

export const JAVA_HOME = "/usr/lib/jvm/java-17-openjdk-amd64";

/** 'openjdk version "17.0.13" 2024-10-15' -> "17.0.13". */
export function parseJavaVersion(versionOutput: string): string | undefined {
  return /version "([^"]+)"/.exec(versionOutput)?.[1];
}

/** The Java version, or undefined when JAVA_HOME has no java. */
export async function javaVersion(javaHome: string = JAVA_HOME): Promise<string | undefined> {
  const java = join(javaHome, "bin", "java");
  if (!existsSync(java)) return undefined;
  const result = await execa(java, ["-version"], { reject: false, all: true });
  return result.exitCode === 0 ? parseJavaVersion(String(result.all ?? "")) : undefined;
}

/** javaVersion()'s answer as the doctor lists it and prepare() refuses with it. */
export function javaCheck(version: string | undefined, javaHome: string = JAVA_HOME): PrerequisiteFound | PrerequisiteMissing {
  const name = "OpenJDK 17";
  if (version !== undefined) return { name, have: version, ok: true };
  return { name, have: "none", ok: false, reason: `no Java at ${javaHome}`, fix: "apt-get install openjdk-17-jdk-headless" };
}

/** The doctor's row and prepare()'s refusal for every row that runs on the JVM. */
export async function javaPrerequisite(javaHome: string = JAVA_HOME): Promise<PrerequisiteFound | PrerequisiteMissing> {
  return javaCheck(await javaVersion(javaHome), javaHome);
}
