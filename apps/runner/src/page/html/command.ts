import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { BenchResults } from "../../results/types.ts";
import type { OtherMachine } from "../across-machines.ts";
import { renderHtml } from "./render-html.ts";

/** Writes page.html beside a page.md path (page.md → page.html; any other name gets .html added). */
export function htmlPathFor(markdownPath: string): string {
  return markdownPath.endsWith(".md") ? `${markdownPath.slice(0, -3)}.html` : `${markdownPath}.html`;
}

/** `agreeWith`: another knee search of the same rows, whose agreement table the page carries (page/agreement.ts). */
export function writeHtmlPage(path: string, results: BenchResults, otherMachines: readonly OtherMachine[] = [], agreeWith?: BenchResults): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, renderHtml(results, otherMachines, agreeWith));
}
