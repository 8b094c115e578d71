import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { readResults } from "../results/files.ts";
import type { OtherMachine } from "./across-machines.ts";
import { renderPage } from "./render.ts";

/** `--compare LABEL=results.json` (or just the path, then labelled by it): another machine's results. */
export function parseOtherMachine(spec: string, resolvePath: (path: string) => string = (p) => p): OtherMachine {
  const at = spec.indexOf("=");
  const [label, path] = at > 0 ? [spec.slice(0, at), spec.slice(at + 1)] : [spec, spec];
  return { label, results: readResults([resolvePath(path)]) };
}

export function renderCommand(files: string[], out: string | undefined, otherMachines: readonly OtherMachine[] = [], agreeWith?: string): void {
  const page = renderPage(readResults(files), otherMachines, agreeWith ? readResults([agreeWith]) : undefined);
  if (out) {
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, page);
  } else process.stdout.write(page);
}
