import { readFileSync } from "node:fs";
import { join } from "node:path";
import { readResults, rederive } from "../results/files.ts";
import type { BenchResults, RunResult } from "../results/types.ts";
import { renderPage, rowsOf } from "./render.ts";
import { noisyShort, spreadOf } from "./rows.ts";

const fixtures = join(import.meta.dirname, "__fixtures__");
const committed = (): BenchResults => readResults([join(fixtures, "results.json")]);
/** One fault run of a --faults file. */
const fault = {
  product: "node",
  status: "ok",
  settings: { offeredRate: 20_000, poisonRounds: 3, windowSec: 20 },
  delivery: "at-least-once",
  pills: 21,
  survivedPills: true,
} as unknown as NonNullable<BenchResults["faults"]>[number];

describe("renderPage", () => {
  it("renders the committed results to the committed page, byte for byte", () => {
    expect(renderPage(committed())).toBe(readFileSync(join(fixtures, "page.md"), "utf8"));
  });

  it("renders a schema-2 results file (a real run on a busy machine) byte for byte, each noisy row marked", () => {
    const results = readResults([join(fixtures, "results-schema2.json")]);
    const page = renderPage(results);
    expect(page).toBe(readFileSync(join(fixtures, "page-schema2.md"), "utf8"));
    expect(page).toMatch(/^Machine: these runs were read by an older speed index \(version 1/m);
    // Judged again by today's rules: noisy by its foreign load alone, never by a speed reading.
    expect(page).toMatch(/^\| node-passthrough 20\.20\.2 \| 4,994 \|.*\| – \|.*\| ⚠ NOISY — foreign load 75\.3% \|$/m);
    expect(page).toMatch(/^\| node 20\.20\.2 \| 4,997 \|.*\| ✓ \|$/m);
    expect(page).toContain("## Run conditions");
  });

  it("says plainly that a schema-1 page cannot tell a busy machine from a slow product", () => {
    expect(renderPage(committed())).toContain("these results predate the speed index and foreign-load accounting");
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
    results.runs.push(
      { ...template, product: "risingwave", status: "skipped", reason: "no RisingWave server: RISINGWAVE_BIN is not set", throughput: undefined, ticks: [] },
    );
    const page = renderPage(results);
    expect(page).toContain("- **risingwave** — no RisingWave server: RISINGWAVE_BIN is not set");
    expect(page).not.toMatch(/^\| risingwave[^|]*\| \d/m);
    expect(rowsOf(results).notRun.map((r) => r.product)).toEqual(["risingwave"]);
  });

  it("marks a saturated row's latency unbounded", () => {
    const results = committed();
    const run = results.runs[0]!;
    run.throughput = { ...run.throughput!, regime: "saturated" };
    expect(renderPage(results)).toMatch(/\| saturated \|.*\| unbounded \|/);
  });

  it("marks an invalid row in the first table with its reason, and the verdict ✗", () => {
    const results = committed();
    const run = results.runs[0]!;
    run.status = "invalid";
    run.reason = "lost 3 of 200256 records";
    run.delivery = { ...run.delivery!, lost: 3 };
    const page = renderPage(results);
    expect(page).toMatch(/^\| node 20\.20\.2 \| [\d,]+ \|.*\| ✗ INVALID — lost 3 of 200256 records \|$/m);
    expect(page).toContain("Verdict: ✗");
  });

  it("shows an invalid run that failed the gate in the first table, with dashes for figures it never had", () => {
    const results = committed();
    const run = results.runs[0]!;
    Object.assign(
      run,
      { status: "invalid", reason: "verification failed: largest risk error 0.5", throughput: undefined, resources: undefined, delivery: undefined, ticks: [] },
    );
    run.verification = { passed: false, checked: 256, maxError: 0.5 };
    const page = renderPage(results);
    expect(page).toMatch(/^\| node 20\.20\.2 \| – \| – \|.*\| ✗ INVALID — verification failed: largest risk error 0\.5 \|$/m);
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

describe("which run stands for a product", () => {
  const quiet = { speedIndexBefore: 100_000, speedIndexAfter: 100_000, foreignCpuAvg: 1, foreignCpuMax: 2, stealAvg: 0, noisy: false, noisyBecause: [] };

  it("a swept product's row is a valid, settled, quiet keep-up run at its knee; the spread is over those", () => {
    const results = committed();
    const base = results.runs.find((r) => r.product === "node")!;
    const run = (perCore: number, extra: Partial<RunResult> = {}): RunResult => ({
      ...base,
      settled: true,
      conditions: quiet,
      throughput: { ...base.throughput!, rowsPerCore: perCore, cpuMicrosPerInference: 1e6 / perCore },
      ...extra,
    });
    results.runs = [
      run(40_000),
      run(41_000, { conditions: { ...quiet, noisy: true, noisyBecause: ["foreign load 30.0% of a core (limit 10%)"] } }),
      run(39_000),
      run(45_000, { settled: false }),
      run(38_000, { status: "invalid", reason: "lost 3 of 1000 records" }),
    ];
    results.sweeps = [{ product: "node", knee: base.settings.offeredRate, confirmed: true, stoppedBecause: "test.", steps: [] }];
    const row = rowsOf(results).measured.find((r) => r.product === "node")!;
    expect(row.throughput!.rowsPerCore).toBe(39_000);
    expect(spreadOf(results, row)).toEqual({
      runs: 2,
      rowsPerCore: { min: 39_000, median: 39_500, max: 40_000 },
      cpuMicrosPerInference: { min: 1e6 / 40_000, median: (1e6 / 40_000 + 1e6 / 39_000) / 2, max: 1e6 / 39_000 },
    });
    expect(renderPage(results)).toMatch(/^\| node 20\.20\.2 \| [\d,]+ \| 2 \| 39,000 \/ 39,500 \/ 40,000 \|/m);
  });

  it("a product with no run that counts shows its last run, marked", () => {
    const results = committed();
    const base = results.runs.find((r) => r.product === "node")!;
    results.runs = [{ ...base, status: "invalid", reason: "mis-scored 4 of 20000 checked (largest error 5.0e-1)" }];
    results.sweeps = [{ product: "node", confirmed: false, stoppedBecause: "test.", steps: [] }];
    expect(rowsOf(results).measured.map((r) => r.status)).toEqual(["invalid"]);
    expect(renderPage(results)).toContain("✗ INVALID — mis-scored 4 of 20000 checked");
  });
});

describe("a row that is not a sustainable point", () => {
  const withRegime = (regime: "draining" | "saturated"): BenchResults => {
    const results = committed();
    const base = results.runs.find((r) => r.product === "node")!;
    results.runs = [{ ...base, throughput: { ...base.throughput!, regime } }];
    results.sweeps = [{ product: "node", confirmed: false, stoppedBecause: "test.", steps: [] }];
    return results;
  };

  it("a draining row is marked as catch-up, never ✓ (a flink row once measured was a draining window)", () => {
    const page = renderPage(withRegime("draining"));
    expect(page).toMatch(/^\| node .*\| ⚠ DRAINING — a backlog was being worked off: catch-up CPU, not a steady state \|$/m);
  });

  it("a saturated row is marked as past capacity", () => {
    expect(renderPage(withRegime("saturated"))).toMatch(/^\| node .*\| ⚠ SATURATED — past capacity/m);
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

  it("judges every run again by today's rules: a speed change alone no longer makes a run noisy, foreign load does", async () => {
    const { mkdtempSync, writeFileSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const dir = mkdtempSync(join(tmpdir(), "rejudge-"));
    const results = readResults([join(fixtures, "results-schema2.json")]);
    const run = results.runs.find((r) => r.conditions && r.status === "ok")!;
    const reference = run.conditions!.speedIndexReference!;
    // As a file judged by the old rules would hold it: noisy by a speed change, foreign load clean.
    const stored = {
      ...run,
      conditions: {
        ...run.conditions!,
        speedIndexBefore: reference,
        speedIndexAfter: reference * 0.75,
        foreignCpuAvg: 0,
        stealAvg: 0,
        noisy: true,
        noisyBecause: ["speed index moved -25% during the run"],
      },
    };
    stored.ticks = stored.ticks.map((t) => ({ ...t, foreignCpuPercent: 0, stealPercent: 0 }));
    const busy = {
      ...stored,
      conditions: { ...stored.conditions, noisy: false, noisyBecause: [] },
      ticks: stored.ticks.map((t) => ({ ...t, foreignCpuPercent: 40 })),
    };
    writeFileSync(join(dir, "r.json"), JSON.stringify({ ...results, runs: [stored, busy], sweeps: [] }));
    const [quiet, loaded] = readResults([join(dir, "r.json")]).runs;
    expect(quiet!.conditions).toMatchObject({ noisy: false, noisyBecause: [], speedIndexVersion: 1 });
    expect(loaded!.conditions?.noisyBecause).toEqual(["foreign load 40.0% of a core (limit 10%)"]);
    expect(noisyShort(loaded!)).toBe("foreign load 40.0%");
  });

  it("takes the fault runs of a later --faults file beside the earlier file's sweep", async () => {
    const { mkdtempSync, writeFileSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const dir = mkdtempSync(join(tmpdir(), "merge-"));
    writeFileSync(join(dir, "sweep.json"), JSON.stringify(committed()));
    writeFileSync(join(dir, "faults.json"), JSON.stringify({ ...committed(), runs: [], sweeps: [], faults: [fault] }));
    const merged = readResults([join(dir, "sweep.json"), join(dir, "faults.json")]);
    expect(merged.runs).toEqual(committed().runs.map(rederive));
    expect(merged.faults?.map((f) => f.product)).toEqual(["node"]);
    expect(renderPage(merged)).toContain("## Faults");
  });

  it("renders a file of fault scenarios alone with no empty run tables, and says why nothing is ranked", () => {
    const page = renderPage({ ...committed(), runs: [], sweeps: [], faults: [fault] });
    expect(page).toContain("No row's cost was timed on this page, so none is ranked: it holds fault scenarios, below (Faults (kill -9 among poison pills))");
    expect(page).not.toContain("see the marks in the throughput table");
    for (const heading of ["## Throughput / efficiency", "## Resources (raw)", "## Notes per product"]) expect(page).not.toContain(heading);
    expect(page).not.toMatch(/\| product \| delivery \| processing \|/);
    expect(page).toContain("## Faults");
  });
});
