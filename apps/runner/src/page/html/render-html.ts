/**
 * page.html: the Markdown page's tables and text, plus charts drawn in the browser with
 * Observable Plot. One self-contained file: d3 and Plot are inlined from their npm packages and
 * the data is embedded, so it opens offline and fetches nothing.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { BenchResults } from "../../results/types.ts";
import { renderPage, type PageExtras } from "../render.ts";
import { chartData, chartSpecs, hasSeveralRates } from "./chart-data.ts";
import { escapeHtml, markdownToHtml } from "./markdown.ts";
import { EXACTLY_ONCE_HEADING } from "../exactly-once.ts";
import { TWO_MODELS_HEADING } from "../two-models.ts";
import { MACHINE_HEADING } from "../machine.ts";

/** A package's root folder, found through the resolver (its exports map hides dist/ from import). */
function packageRoot(name: string): string {
  let dir = dirname(createRequire(import.meta.url).resolve(name));
  for (;;) {
    try {
      const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: string };
      if (manifest.name === name) return dir;
    } catch {
      // not a package folder: go up
    }
    const up = dirname(dir);
    if (up === dir) throw new Error(`cannot find the folder of the ${name} package`);
    dir = up;
  }
}

let libraries: string | undefined;
function chartLibraries(): string {
  libraries ??= [
    readFileSync(join(packageRoot("d3"), "dist", "d3.min.js"), "utf8"),
    readFileSync(join(packageRoot("@observablehq/plot"), "dist", "plot.umd.min.js"), "utf8"),
  ].join("\n;\n");
  return libraries;
}

/** JSON inside a <script> element: `<` escaped so no string in the data can close the element. */
const scriptJson = (value: unknown): string => JSON.stringify(value).replace(/</g, "\\u003c");
/** Inlined code must not contain a closing script tag either. */
const scriptCode = (code: string): string => code.replace(/<\/script/gi, "<\\/script");

const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 1200px; padding: 0 1em; color: #222; }
h1, h2, h3 { line-height: 1.2; } h2 { margin-top: 2em; border-bottom: 1px solid #ddd; }
.table { overflow-x: auto; } table { border-collapse: collapse; margin: 1em 0; font-size: 13px; }
th, td { border: 1px solid #ddd; padding: 3px 6px; text-align: left; vertical-align: top; } th { background: #f4f4f4; }
.charts { display: flex; flex-wrap: wrap; gap: 1.5em; }
figure { margin: 0; } figcaption { font-weight: 600; margin-bottom: .3em; }
.empty { color: #777; font-style: italic; }
`;

function insertBefore(html: string, marker: string, block: string): string {
  const at = html.indexOf(marker);
  return at >= 0 ? `${html.slice(0, at)}${block}\n${html.slice(at)}` : `${html}\n${block}`;
}

export function renderHtml(results: BenchResults, extras: PageExtras = {}): string {
  const data = chartData(results);
  const charts = chartSpecs(data);
  const figure = (id: string): string => {
    const spec = charts.find((c) => c.id === id)!;
    return `<figure data-chart="${escapeHtml(spec.id)}" data-mark="${spec.mark}" data-expected="${spec.expected}"><figcaption>` +
      `${escapeHtml(spec.title)}</figcaption><div class="plot${spec.expected === 0 ? " empty" : ""}"></div></figure>`;
  };
  const sections: string[] = ['<h2 id="charts">Charts</h2>'];
  sections.push(
    "<p>Every dot is one measured run from the results file. Sweep: the dashed diagonal is consumed = offered; colour is the run's regime, a black cross " +
      "marks a run on a machine that was not quiet; the green line is the knee, the red one the ceiling. Latency is drawn for keep-up runs only (beyond the " +
      "knee it is unbounded).</p>",
  );
  // The answer's chart right under the answer's table: what each row costs at its knee.
  const answer = [
    `<div class="charts">${["knee-us-per-inference", "knee-rows-per-core"].map(figure).join("")}</div>`,
    "<p>At the knee: a dot per run at the knee rate that counts (valid, settled, quiet, keep-up: the spread table's runs), the bar from the lowest to the " +
      "highest, the tick at the median; a product with no such run at its knee is not in these two.</p>",
  ];
  sections.push("<h3>Across products</h3>", `<div class="charts">${["cpu-breakdown", "harness", "speed-index"].map(figure).join("")}</div>`);
  sections.push(
    "<p>Harness: what the sampler, the rest of the runner, gendata and the broker cost while the product's windows ran (the runner bar excludes the " +
      "sampler). Speed index: reference records per CPU-second measured just before and after each run, where the results record it.</p>",
  );
  // A product's own charts only where it was run at more than one rate: one dot says nothing a table does not.
  for (const p of data.products.filter(hasSeveralRates)) {
    sections.push(
      `<h3>${escapeHtml(p.label)}</h3>`,
      `<div class="charts">${[`sweep-${p.product}`, `cpu-${p.product}`, `latency-${p.product}`].map(figure).join("")}</div>`,
    );
  }
  const markdown = markdownToHtml(renderPage(results, extras));
  // The knee charts go under the answer (before the two models', the exactly-once or the machine's section); the rest after the
  // characteristics, before the tables.
  const headings = [`<h2>${TWO_MODELS_HEADING}`, `<h2>${EXACTLY_ONCE_HEADING}`, `<h2>${MACHINE_HEADING}</h2>`, "<h2>Bench characteristics</h2>"];
  const afterAnswer = headings.find((h) => markdown.includes(h)) as string;
  const withAnswer = insertBefore(markdown, afterAnswer, answer.join("\n"));
  const body = insertBefore(withAnswer, "<h2>Throughput / efficiency</h2>", sections.join("\n"));
  return [
    "<!doctype html>",
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>Model Inference — stream-ml-bench ${escapeHtml(results.generatedAt.slice(0, 10))}</title>`,
    `<style>${STYLE}</style>`,
    "</head><body>",
    body,
    `<script type="application/json" id="bench-data">${scriptJson({ ...data, charts })}</script>`,
    `<script>${scriptCode(chartLibraries())}</script>`,
    `<script>${scriptCode(readFileSync(join(dirname(fileURLToPath(import.meta.url)), "client.js"), "utf8"))}</script>`,
    "</body></html>",
    "",
  ].join("\n");
}
