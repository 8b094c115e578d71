/**
 * page.html in a real browser: Debian's chromium, headless, driven by playwright-core. Every
 * chart must draw one mark per run it stands for, the console must stay free of errors, the page
 * must fetch nothing, and a screenshot is saved for a person to look at.
 */
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { repoRoot } from "@bench/core";
import { chromium, type Browser, type Page } from "playwright-core";
import { renderHtml } from "../../src/page/html/render-html.ts";
import { chartData } from "../../src/page/html/chart-data.ts";
import { rowsOf } from "../../src/page/render.ts";
import { readResults } from "../../src/results/files.ts";
import type { BenchResults } from "../../src/results/types.ts";

const CHROMIUM = process.env.BENCH_CHROMIUM ?? "/usr/bin/chromium";
const committedDir = join(repoRoot(), "docs", "results", "2026-11-30");
const committed = (): BenchResults => readResults([join(committedDir, "results-all.json.gz"), join(committedDir, "results-quix-rerun.json.gz")]);
/**
 * Every row measured so far on one page (the first sweep's rows and the peers'), and, so the page
 * has more rows than any published one yet, four of them again under a second name.
 */
function everyRow(): BenchResults {
  const results = readResults(
    [
      join(repoRoot(), "docs", "results", "2026-12-01", "results-sweep.json.gz"),
      join(repoRoot(), "docs", "results", "2026-12-01-peers", "sweep", "results.json.gz"),
    ],
  );
  const again = [...new Set((results.sweeps ?? []).map((s) => s.product))].slice(0, 4);
  const renamed = (product: string): string => `${product}-second-name`;
  return {
    ...results,
    runs: [...results.runs, ...results.runs.filter((r) => again.includes(r.product)).map((r) => ({ ...r, product: renamed(r.product) }))],
    sweeps: [...(results.sweeps ?? []), ...(results.sweeps ?? []).filter((s) => again.includes(s.product)).map((s) => ({ ...s, product: renamed(s.product) }))],
  };
}

interface Box { text: string; top: number; bottom: number; left: number; right: number }

/** Each product label on a chart's axis, and the chart's own box. */
async function productLabels(page: Page, chart: string): Promise<{ labels: Box[]; svg: Box }> {
  return page.$eval(`figure[data-chart="${chart}"]`, (figure) => {
    // Runs in the page: no DOM types in this project's TypeScript setup, so the one method used.
    const box = (el: { getBoundingClientRect(): { top: number; bottom: number; left: number; right: number } }, text: string) => {
      const r = el.getBoundingClientRect();
      return { text, top: r.top, bottom: r.bottom, left: r.left, right: r.right };
    };
    const texts = [...figure.querySelectorAll('g[aria-label="y-axis tick label"] text')];
    // The chart's own svg, not a legend's swatch.
    const svg = texts[0]?.closest("svg") ?? figure;
    return { labels: texts.map((t) => box(t, t.textContent ?? "")), svg: box(svg, "") };
  });
}

/** The marks each chart must show, counted from the results here, not taken from the page. */
function expectedMarks(results: BenchResults): Map<string, number> {
  const expected = new Map<string, number>();
  const plotted = (product: string) => results.runs.filter((r) => r.product === product && r.throughput && (r.status === "ok" || r.status === "invalid"));
  let atKnee = 0;
  let harnessBars = 0;
  const { measured, notRun } = rowsOf(results);
  for (const row of [...measured, ...notRun]) {
    const runs = plotted(row.product);
    if (runs.length === 0) continue;
    // A product's own charts only where it ran at more than one rate.
    if (new Set(runs.map((r) => r.settings.offeredRate)).size > 1) {
      expected.set(`sweep-${row.product}`, runs.length);
      expected.set(`cpu-${row.product}`, runs.length);
      expected.set(`latency-${row.product}`, 2 * runs.filter((r) => r.throughput!.regime === "keep-up" && r.delivery?.latencyMs).length);
    }
    const sweep = results.sweeps?.find((s) => s.product === row.product);
    atKnee += sweep
      ? runs.filter((r) => r.status === "ok" && r.settings.offeredRate === sweep.knee && r.throughput!.regime === "keep-up").length
      : row.throughput?.regime === "keep-up" ? 1 : 0;
    if (runs.some((r) => r.status === "ok" && r.harness)) harnessBars += 4;
  }
  expected.set("knee-rows-per-core", atKnee);
  expected.set("knee-us-per-inference", atKnee);
  expected.set("harness", harnessBars);
  expected.set("speed-index", 2 * results.runs.filter((r) => r.conditions).length);
  // A segment per category with CPU in it, for each row with a profile (its own, or one at its rate) that profiling did not move over 25 %.
  expected.set(
    "cpu-breakdown",
    measured.reduce((n, row) => {
      const profile = row.profile ?? results.runs.find(
        (r) => r.product === row.product && r.settings.offeredRate === row.settings.offeredRate && r.profile,
      )?.profile;
      const window = profile?.overhead.cpuMicrosPerRecordWindow ?? 0;
      const moved = window > 0 && Math.abs(profile!.overhead.cpuMicrosPerRecordProfiled / window - 1) > 0.25;
      return n + (profile && !moved ? Object.values(profile.shares).filter((share) => share > 0).length : 0);
    }, 0),
  );
  return expected;
}

interface Drawn { id: string; expected: number; marks: number; text: string }

async function open(
  browser: Browser,
  results: BenchResults,
  name: string,
  screenshot?: string,
  inspect?: (page: Page) => Promise<void>,
): Promise<{ drawn: Drawn[]; errors: string[]; requests: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), "page-html-"));
  const file = join(dir, `${name}.html`);
  writeFileSync(file, renderHtml(results));
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors: string[] = [];
  const requests: string[] = [];
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("request", (r) => !r.url().startsWith("file:") && !r.url().startsWith("data:") && requests.push(r.url()));
  await page.goto(pathToFileURL(file).href);
  await page.waitForSelector("body[data-charts-drawn]", { timeout: 30_000 });
  const drawn = await page.$$eval("figure[data-chart]", (figures) =>
    figures.map((f) => {
      // Runs in the page: no DOM types in this project's TypeScript setup, so attributes by name.
      const el = f;
      const mark = el.getAttribute("data-mark") ?? "dot";
      const selector = mark === "bar" ? 'g[aria-label="bar"] rect' : 'g[aria-label="dot"] circle';
      return {
        id: el.getAttribute("data-chart") ?? "",
        expected: Number(el.getAttribute("data-expected")),
        marks: el.querySelectorAll(selector).length,
        text: el.textContent ?? "",
      };
    }),
  );
  await inspect?.(page);
  if (screenshot) {
    await page.screenshot({ path: screenshot, fullPage: true });
    // The charts alone, at a size a person can read at a glance.
    const top = (await page.locator("#charts").boundingBox())?.y ?? 0;
    await page.screenshot({ path: screenshot.replace(/\.png$/, "-charts.png"), fullPage: true, clip: { x: 0, y: top, width: 1280, height: 1800 } });
  }
  await page.close();
  return { drawn, errors, requests };
}

describe("page.html in headless Chromium", () => {
  let browser: Browser;
  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`no browser at ${CHROMIUM}: scripts/setup.sh installs Debian's chromium`);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it("draws every run of the committed results, with no console error and no request", async () => {
    const results = committed();
    const shotDir = join(repoRoot(), "results", "screenshots");
    mkdirSync(shotDir, { recursive: true });
    const shot = join(shotDir, "page-2026-11-30.png");
    const { drawn, errors, requests } = await open(browser, results, "committed", shot);
    console.log(`page-browser: screenshots saved to ${shot} and ${shot.replace(/\.png$/, "-charts.png")}`);
    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
    const expected = expectedMarks(results);
    expect(new Set(drawn.map((d) => d.id))).toEqual(new Set(expected.keys()));
    for (const d of drawn) {
      expect({ id: d.id, marks: d.marks }).toEqual({ id: d.id, marks: expected.get(d.id) });
      expect({ id: d.id, marks: d.expected }).toEqual({ id: d.id, marks: expected.get(d.id) });
    }
    // The committed sweep has 34 measured runs (39 less the three not run here and quix's runs replaced by its re-run).
    expect(drawn.filter((d) => d.id.startsWith("sweep-")).reduce((a, d) => a + d.marks, 0)).toBe(34);
    expect(drawn.find((d) => d.id === "speed-index")?.text).toContain("hold no speed index");
  }, 120_000);

  it("draws the speed index and the CPU breakdown of results that record them", async () => {
    // Synthetic conditions and one synthetic profile on the small fixture (its runs predate both).
    const results = readResults([join(repoRoot(), "apps", "runner", "src", "page", "__fixtures__", "results.json")]);
    results.runs.forEach((r, i) => {
      r.conditions = {
        speedIndexBefore: 1000 + i,
        speedIndexAfter: 990 + i,
        foreignCpuAvg: 1,
        foreignCpuMax: 2,
        stealAvg: 0,
        noisy: i === 0,
        noisyBecause: i === 0 ? ["synthetic"] : [],
      };
    });
    const zero = { fetch: 0, decode: 0, features: 0, model: 0, encode: 0, produce: 0, runtime: 0, other: 0 };
    results.runs[0]!.profile = {
      seconds: 10, consumedPerSec: 1000, cpuAvg: 50, processes: [],
      shares: { ...zero, fetch: 0.4, model: 0.35, produce: 0.15, other: 0.1 },
      microsPerRecord: { ...zero, fetch: 200, model: 175, produce: 75, other: 50 },
      overhead: { profilerCpuPercent: 5, cpuMicrosPerRecordWindow: 480, cpuMicrosPerRecordProfiled: 500 },
    } as unknown as NonNullable<(typeof results.runs)[number]["profile"]>;
    const { drawn, errors } = await open(browser, results, "speed");
    expect(errors).toEqual([]);
    expect(drawn.find((d) => d.id === "speed-index")?.marks).toBe(2 * results.runs.length);
    expect(drawn.find((d) => d.id === "cpu-breakdown")?.marks).toBe(4);
  }, 120_000);

  it("holds the ranking's top rows on the first screen (1400x900) of the newest main command's page", async () => {
    const results = readResults([join(repoRoot(), "docs", "results", "2026-12-05-rounds-sixth", "results.json.gz")]);
    const file = join(mkdtempSync(join(tmpdir(), "page-html-")), "first-screen.html");
    writeFileSync(file, renderHtml(results));
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(pathToFileURL(file).href);
    const shot = join(repoRoot(), "results", "screenshots", "page-first-screen.png");
    mkdirSync(dirname(shot), { recursive: true });
    await page.screenshot({ path: shot });
    console.log(`page-browser: the first screen saved to ${shot}`);
    // The answer's table is the first table after its heading; its header and first five rows must end above the fold.
    const rows = await page.$$eval("h2", (headings) => {
      const answer = headings.find((h) => (h.textContent ?? "").startsWith("Which costs least"));
      let el = answer?.nextElementSibling;
      while (el && !el.querySelector("table") && el.tagName !== "TABLE") el = el.nextElementSibling;
      const table = el?.tagName === "TABLE" ? el : el?.querySelector("table");
      return [...(table?.querySelectorAll("tr") ?? [])].slice(0, 6).map((tr) => ({
        text: tr.textContent ?? "",
        bottom: tr.getBoundingClientRect().bottom,
      }));
    });
    await page.close();
    expect(rows.length).toBe(6);
    expect(rows[0]!.text).toContain("rank");
    const below = rows.filter((r) => r.bottom > 900).map((r) => r.text.slice(0, 40));
    expect(below).toEqual([]);
  }, 120_000);

  it("gives every product label of the per-product charts its own place with every row on the page", async () => {
    const results = everyRow();
    const data = chartData(results);
    const productsOf = (rows: readonly { product: string }[]): string[] => [...new Set(rows.map((r) => r.product))];
    const charts = new Map([
      ["knee-rows-per-core", productsOf(data.spreads)],
      ["knee-us-per-inference", productsOf(data.spreads)],
      ["harness", productsOf(data.harness)],
      ["cpu-breakdown", productsOf(data.breakdown)],
    ]);
    expect(productsOf(data.spreads).length).toBeGreaterThanOrEqual(12);
    const shot = join(repoRoot(), "results", "screenshots", "page-every-row.png");
    mkdirSync(dirname(shot), { recursive: true });
    const seen = new Map<string, { labels: Box[]; svg: Box }>();
    const { errors } = await open(browser, results, "every-row", shot, async (page) => {
      for (const chart of charts.keys()) seen.set(chart, await productLabels(page, chart));
    });
    console.log(`page-browser: every-row screenshots saved to ${shot} and ${shot.replace(/\.png$/, "-charts.png")}`);
    expect(errors).toEqual([]);
    for (const [chart, { labels, svg }] of seen) {
      expect({ chart, labels: labels.map((l) => l.text) }).toEqual({ chart, labels: charts.get(chart) });
      const sorted = [...labels].sort((a, b) => a.top - b.top);
      const overlapping = sorted.slice(1).filter((l, i) => l.top < sorted[i]!.bottom).map((l) => l.text);
      expect({ chart, overlapping }).toEqual({ chart, overlapping: [] });
      const clipped = labels.filter((l) => l.left < svg.left || l.right > svg.right).map((l) => l.text);
      expect({ chart, clipped }).toEqual({ chart, clipped: [] });
    }
  }, 120_000);
});
