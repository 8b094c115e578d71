import { readFileSync } from "node:fs";
import { join } from "node:path";
import { readResults } from "../results/files.ts";
import type { BenchResults } from "../results/types.ts";
import { renderPage, rowsOf } from "./render.ts";

const fixtures = join(import.meta.dirname, "__fixtures__");
const committed = (): BenchResults => readResults([join(fixtures, "results.json")]);

describe("renderPage", () => {
  it("renders the committed results to the committed page, byte for byte", () => {
    expect(renderPage(committed())).toBe(readFileSync(join(fixtures, "page.md"), "utf8"));
  });

  it("has the seed's sections and a row per measured product in every table", () => {
    const page = renderPage(committed());
    for (const heading of ["## Bench characteristics", "## Throughput / efficiency", "## Resources (raw)", "## Sanity — are we benching the same thing?"]) {
      expect(page).toContain(heading);
    }
    expect(page.match(/^\| node 20\.20\.2 \|/gm)).toHaveLength(4);
    expect(page).toContain("Verdict: ✓");
  });

  it("shows a skipped product with its reason and no numbers", () => {
    const results = committed();
    const template = results.runs[0]!;
    results.runs.push({ ...template, product: "risingwave", status: "skipped", reason: "no RisingWave server: RISINGWAVE_BIN is not set", throughput: undefined, ticks: [] });
    const page = renderPage(results);
    expect(page).toContain("- **risingwave** — no RisingWave server: RISINGWAVE_BIN is not set");
    expect(page).not.toMatch(/^\| risingwave[^|]*\| \d/m);
    expect(rowsOf(results).notRun.map((r) => r.product)).toEqual(["risingwave"]);
  });

  it("marks a saturated row's latency unbounded and a lossy row ✗", () => {
    const results = committed();
    const run = results.runs[0]!;
    run.throughput = { ...run.throughput!, regime: "saturated" };
    run.delivery = { ...run.delivery!, lost: 3 };
    const page = renderPage(results);
    expect(page).toMatch(/\| saturated \|.*\| unbounded \|/);
    expect(page).toContain("Verdict: ✗");
  });
});
