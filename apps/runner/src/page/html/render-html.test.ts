import { join } from "node:path";
import { readResults } from "../../results/files.ts";
import type { BenchResults } from "../../results/types.ts";
import { renderPage, rowsOf } from "../render.ts";
import { chartData, chartSpecs } from "./chart-data.ts";
import { markdownToHtml } from "./markdown.ts";
import { renderHtml } from "./render-html.ts";

const committed = (): BenchResults => readResults([join(import.meta.dirname, "..", "__fixtures__", "results.json")]);

describe("renderHtml", () => {
  it("is one self-contained file: no external script, stylesheet or image, the libraries inlined", () => {
    const html = renderHtml(committed());
    expect(html).not.toMatch(/<script[^>]+src=/);
    expect(html).not.toMatch(/<link[^>]+href=/);
    expect(html).not.toMatch(/<img/);
    expect(html).toContain("Plot.plot(");
    expect(html).toMatch(/d3js\.org v7\.9\.0/);
    expect(html.match(/<\/script>/g)).toHaveLength(3);
  });

  it("holds the Markdown page's tables, cell for cell", () => {
    const results = committed();
    const html = renderHtml(results);
    const rows = renderPage(results).split("\n").filter((l) => l.startsWith("| ") && !l.startsWith("| ---"));
    const htmlRows = html.match(/<tr>.*?<\/tr>/g) ?? [];
    expect(htmlRows).toHaveLength(rows.length);
    // The answer comes first: its ranking is the page's first table.
    expect(htmlRows[0]).toBe(
      "<tr><th>rank</th><th>product</th><th>at rate/s</th><th>µs CPU / inference (median, range)</th><th>µs @ ref</th><th>rows/s per core (median, " +
        "range)</th><th>runs</th></tr>",
    );
  });

  it("carries the agreement table when given another knee search of the same rows, as the Markdown page does", () => {
    const fixture = (name: string): BenchResults => readResults([join(import.meta.dirname, "..", "__fixtures__", name)]);
    const [fast, sweep] = [fixture("agreement-fast.json"), fixture("agreement-sweep.json")];
    expect(renderHtml(fast)).not.toContain("The fast knee against the sweep");
    const html = renderHtml(fast, { agreeWith: sweep });
    expect(html).toContain("<h2>The fast knee against the sweep</h2>");
    expect(html).toContain("<th>µs repeats fast / sweep</th>");
  });

  it("keeps data from closing its script element", () => {
    const results = committed();
    results.runs[0]!.notes = ["</script><script>alert(1)</script>"];
    const html = renderHtml(results);
    expect(html).not.toContain("</script><script>alert(1)");
  });
});

describe("chartData", () => {
  it("plots every measured run of a product, and gives a product its own charts only where it ran at several rates", () => {
    const results = committed();
    const node = results.runs.find((r) => r.product === "node")!;
    results.runs.push({ ...node, settings: { ...node.settings, offeredRate: node.settings.offeredRate * 2 } });
    const data = chartData(results);
    const specs = chartSpecs(data);
    for (const p of data.products) {
      const runs = results.runs.filter((r) => r.product === p.product && r.throughput);
      const rates = new Set(runs.map((r) => r.settings.offeredRate)).size;
      expect(specs.find((s) => s.id === `sweep-${p.product}`)?.expected).toBe(rates > 1 ? runs.length : undefined);
      expect(p.points.map((x) => x.consumed)).toEqual(runs.map((r) => r.throughput!.consumedPerSec));
    }
    expect(specs.some((s) => s.id === "sweep-node")).toBe(true);
    expect(specs.some((s) => s.id === "sweep-node-passthrough")).toBe(false);
    expect(specs.find((s) => s.id === "speed-index")?.expected).toBe(0);
  });

  it("takes the spread at the knee from every keep-up repeat at the knee rate", () => {
    const results = committed();
    const base = results.runs.find((r) => r.product === "node")!;
    const at = (rate: number, regime: "keep-up" | "saturated", rowsPerCore: number) => ({
      ...base,
      settings: { ...base.settings, offeredRate: rate },
      throughput: { ...base.throughput!, offeredPerSec: rate, consumedPerSec: rate, regime, rowsPerCore },
    });
    results.runs = [
      at(10_000, "keep-up", 100),
      at(20_000, "keep-up", 300),
      at(40_000, "saturated", 50),
      at(20_000, "keep-up", 200),
      at(20_000, "keep-up", 250),
    ];
    results.sweeps = [{ product: "node", knee: 20_000, ceiling: 31_000, confirmed: true, stoppedBecause: "", steps: [] }];
    const data = chartData(results);
    expect(data.atKnee.map((k) => k.rowsPerCore)).toEqual([300, 200, 250]);
    expect(data.spreads[0]?.rowsPerCore).toEqual({ min: 200, median: 250, max: 300 });
    expect(data.products[0]).toMatchObject({ knee: 20_000, ceiling: 31_000, confirmed: true });
    expect(data.products[0]?.points.map((p) => p.regime)).toEqual(["keep-up", "keep-up", "saturated", "keep-up", "keep-up"]);
  });

  it("plots the speed index before and after each run that records it, and marks invalid runs", () => {
    const results = committed();
    results.runs[0]!.conditions = {
      speedIndexBefore: 1200,
      speedIndexAfter: 1100,
      foreignCpuAvg: 30,
      foreignCpuMax: 60,
      stealAvg: 0,
      noisy: true,
      noisyBecause: ["foreign CPU"],
    };
    results.runs[0]!.status = "invalid";
    const data = chartData(results);
    expect(data.speed).toEqual([
      { product: results.runs[0]!.product, run: 0, when: "before", speedIndex: 1200, noisy: true },
      { product: results.runs[0]!.product, run: 0, when: "after", speedIndex: 1100, noisy: true },
    ]);
    const all = data.products.flatMap((p) => p.points);
    expect(all.find((p) => p.run === 0)).toMatchObject({ regime: "invalid", noisy: true });
  });

  it("stacks a row's CPU breakdown by category, 'other' included, and counts a bar per non-empty category", () => {
    const results = committed();
    const row = rowsOf(results).measured[0]!;
    const zero = { fetch: 0, decode: 0, features: 0, model: 0, encode: 0, produce: 0, runtime: 0, other: 0 };
    row.profile = {
      seconds: 10, consumedPerSec: 1000, cpuAvg: 50, processes: [],
      shares: { ...zero, fetch: 0.4, model: 0.35, other: 0.25 },
      microsPerRecord: { ...zero, fetch: 200, model: 175, other: 125 },
      overhead: { profilerCpuPercent: 5, cpuMicrosPerRecordWindow: 480, cpuMicrosPerRecordProfiled: 500 },
    } as unknown as NonNullable<typeof row.profile>;
    const data = chartData(results);
    expect(data.breakdown).toEqual([
      { product: row.product, category: "fetch", share: 40, microsPerRecord: 200 },
      { product: row.product, category: "model", share: 35, microsPerRecord: 175 },
      { product: row.product, category: "other", share: 25, microsPerRecord: 125 },
    ]);
    expect(chartSpecs(data).find((c) => c.id === "cpu-breakdown")).toMatchObject({ mark: "bar", expected: 3 });
  });
});

describe("markdownToHtml", () => {
  it("turns the page's blocks into HTML and escapes text", () => {
    expect(markdownToHtml("## A <b>\n\nsome **bold** text\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n\n- **x** — y")).toBe(
      [
        "<h2>A &lt;b&gt;</h2>",
        "<p>some <strong>bold</strong> text</p>",
        '<div class="table"><table><thead><tr><th>a</th><th>b</th></tr></thead><tbody>\n<tr><td>1</td><td>2</td></tr>\n</tbody></table></div>',
        "<ul>\n<li><strong>x</strong> — y</li>\n</ul>",
      ].join("\n"),
    );
  });
});
