import { readFileSync, writeFileSync } from "node:fs";
import type { BenchResults } from "./types.ts";

export function writeResults(path: string, results: BenchResults): void {
  writeFileSync(path, `${JSON.stringify(results, null, 1)}\n`);
}

/** Reads one or more results files; several merge into one page (host and broker of the first). */
export function readResults(paths: string[]): BenchResults {
  const all = paths.map((p) => {
    const parsed = JSON.parse(readFileSync(p, "utf8")) as BenchResults;
    if (parsed.schema !== 1) throw new Error(`${p} is not a bench results file (schema ${String(parsed.schema)})`);
    return parsed;
  });
  const [first, ...rest] = all;
  if (!first) throw new Error("no results files given");
  return { ...first, runs: [first, ...rest].flatMap((r) => r.runs) };
}
