/**
 * The JVM yardstick: `jvm/YardstickWork.java` with the kafka-streams row's Jackson, compiled
 * with the JDK's javac into the cache (as that row builds its app), in fresh JVMs of Java 17.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { JAVA_HOME, resolveJars } from "@bench/core";
import type { RuntimeReading } from "../results/types.ts";
import type { YardstickPlace } from "./cpython.ts";
import { readingOf, recordsFile, runProcesses } from "./probe.ts";

/** The kafka-streams row's Jackson (its pins.ts JACKSON_VERSION). */
export const JACKSON = { groupId: "com.fasterxml.jackson.core", artifactId: "jackson-databind", version: "2.19.0" };
export const JVM_PROCESSES = 3;
/** Records per repetition, and a warm-up long enough for C2 to compile the loop. */
export const JVM_RECORDS = 10_000;
const REPEATS = 9;
const WARMUP = 100_000;
const SOURCE = join(import.meta.dirname, "jvm", "YardstickWork.java");

/** The compiled probe's classpath, built once per source text and Jackson pin. */
async function buildProbe(place: YardstickPlace): Promise<string> {
  const libs = await resolveJars(join(place.dir, `jars-jackson-${JACKSON.version}`), [JACKSON], place.log);
  const key = createHash("sha256").update(`${JACKSON.version}\0${readFileSync(SOURCE, "utf8")}`).digest("hex").slice(0, 16);
  const classes = join(place.dir, `classes-${key}`);
  const classpath = `${classes}:${join(libs, "*")}`;
  if (existsSync(classes)) return classpath;
  // Compiled beside the final folder and renamed into place: a half-built folder is never taken as built.
  const building = `${classes}.building-${process.pid}`;
  mkdirSync(building, { recursive: true });
  const result = await execa(
    join(JAVA_HOME, "bin", "javac"),
    ["-Xlint:all", "-Werror", "--release", "17", "-d", building, "-cp", join(libs, "*"), SOURCE],
    { reject: false, all: true },
  );
  if (result.exitCode !== 0) {
    rmSync(building, { recursive: true, force: true });
    throw new Error(`javac failed (exit ${result.exitCode}): ${String(result.all ?? "").split("\n").slice(-10).join("\n")}`);
  }
  renameSync(building, classes);
  return classpath;
}

export async function readJvm(place: YardstickPlace): Promise<RuntimeReading> {
  const classpath = await buildProbe(place);
  // A small heap and the serial collector: the probe's garbage is collected the same way everywhere;
  // -Xbatch compiles in the foreground, so the JIT has finished with the loop when the clock starts
  // whatever else keeps the machine's cores busy.
  const args = [
    "-Xbatch",
    "-Xmx256m",
    "-XX:+UseSerialGC",
    "-cp",
    classpath,
    "YardstickWork",
    recordsFile(place.dir),
    String(JVM_RECORDS),
    String(REPEATS),
    String(WARMUP),
  ];
  return readingOf(JVM_RECORDS, await runProcesses(join(JAVA_HOME, "bin", "java"), args, JVM_PROCESSES));
}
