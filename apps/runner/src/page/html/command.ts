import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { BenchResults } from "../../results/types.ts";
import type { PageExtras } from "../render.ts";
import { renderHtml } from "./render-html.ts";

/** Writes page.html beside a page.md path (page.md → page.html; any other name gets .html added). */
export function htmlPathFor(markdownPath: string): string {
  return markdownPath.endsWith(".md") ? `${markdownPath.slice(0, -3)}.html` : `${markdownPath}.html`;
}

export function writeHtmlPage(path: string, results: BenchResults, extras: PageExtras = {}): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, renderHtml(results, extras));
}
