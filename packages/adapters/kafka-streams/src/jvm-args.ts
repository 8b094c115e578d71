/**
 * The JVM command line and environment of the Streams app: pure, so what the runner starts is
 * unit-tested.
 */
import { join } from "node:path";
import { benchAppEnv, type RunContext } from "@bench/core";
import { MAIN_CLASS, type BuiltApp } from "./build.ts";
import { javaClientEnv } from "./client-settings.ts";

/** A stateless one-partition app holds little: the heap is capped so the JVM does not size itself to the machine. */
export const HEAP = "1g";

export function jvmArgs(built: BuiltApp): string[] {
  return [
    `-Xmx${HEAP}`,
    `-Donnxruntime.native.path=${built.onnxNativeDir}`,
    // slf4j-simple: INFO to stderr with a time of day, so the run's log reads like the others.
    "-Dorg.slf4j.simpleLogger.defaultLogLevel=info",
    "-Dorg.slf4j.simpleLogger.showDateTime=true",
    "-Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS",
    "-cp",
    built.classpath,
    MAIN_CLASS,
  ];
}

/** The run's settings (benchAppEnv), the Java-named client settings and Streams' state folder in the run's folder. */
export function appEnv(ctx: RunContext, javaHome: string): Record<string, string> {
  return {
    ...benchAppEnv(ctx),
    ...javaClientEnv(ctx.kafka),
    BENCH_STATE_DIR: join(ctx.runDir, "streams-state"),
    JAVA_HOME: javaHome,
  };
}
