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

describe("renderPage with a sweep", () => {
  it("takes the row from the run that confirmed the knee and shows every step", () => {
    const results = committed();
    const base = results.runs[0]!;
    const at = (rate: number, regime: "keep-up" | "saturated", consumed: number) => ({
      ...base,
      sweepPurpose: "climb" as const,
      settings: { ...base.settings, offeredRate: rate },
      throughput: { ...base.throughput!, offeredPerSec: rate, consumedPerSec: consumed, regime },
    });
    results.runs = [at(10_000, "keep-up", 10_000), at(20_000, "keep-up", 19_990), at(40_000, "saturated", 31_000), at(20_000, "keep-up", 20_010)];
    results.sweeps = [
      {
        product: "node",
        knee: 20_000,
        ceiling: 31_000,
        confirmed: true,
        stoppedBecause: "the product saturated at 40000/s and kept up at 20000/s; 20000/s held on a repeat.",
        steps: [
          { rate: 10_000, purpose: "climb", offeredPerSec: 10_000, consumedPerSec: 10_000, regime: "keep-up", gendataShort: false },
          { rate: 20_000, purpose: "climb", offeredPerSec: 20_000, consumedPerSec: 19_990, regime: "keep-up", gendataShort: false },
          { rate: 40_000, purpose: "climb", offeredPerSec: 40_000, consumedPerSec: 31_000, regime: "saturated", gendataShort: false },
          { rate: 20_000, purpose: "confirm", offeredPerSec: 20_000, consumedPerSec: 20_010, regime: "keep-up", gendataShort: false },
        ],
      },
    ];
    const page = renderPage(results);
    expect(page).toContain("## Sweep — node");
    expect(page).toContain("SWEPT — knee 20,000/s (confirmed by a repeat), ceiling 31,000/s");
    expect(page).toMatch(/^\| node 20\.20\.2 \| 20,000 \| 20,010 \| keep-up \|/m);
    expect(page.match(/^\| \d \| (climb|confirm) \|/gm)).toHaveLength(4);
  });
});

describe("readResults merging", () => {
  it("lets a product measured again in a later file replace its earlier runs", async () => {
    const { mkdtempSync, writeFileSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const dir = mkdtempSync(join(tmpdir(), "merge-"));
    const base = committed();
    const again = committed();
    again.runs = again.runs.filter((r) => r.product === "node").map((r) => ({ ...r, startedAt: "2027-01-01T00:00:00.000Z" }));
    writeFileSync(join(dir, "a.json"), JSON.stringify(base));
    writeFileSync(join(dir, "b.json"), JSON.stringify(again));
    const merged = readResults([join(dir, "a.json"), join(dir, "b.json")]);
    expect(merged.runs.map((r) => r.product)).toEqual(["node-passthrough", "node"]);
    expect(merged.runs.find((r) => r.product === "node")?.startedAt).toBe("2027-01-01T00:00:00.000Z");
  });
});
