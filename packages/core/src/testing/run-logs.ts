/**
 * Every log a product wrote under its run folder, joined: the app's own and whatever its engine
 * writes beside it (flink's JVM log, which also carries its Python workers' output: PyFlink sends
 * a worker's stdout and stderr to logging, and Beam's harness hands that to the JVM's log).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export function runLogs(runDir: string): string {
  return (readdirSync(runDir, { recursive: true }) as string[])
    .filter((f) => f.endsWith(".log"))
    .sort()
    .map((f) => readFileSync(join(runDir, f), "utf8"))
    .join("\n");
}
