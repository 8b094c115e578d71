import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { modelServerFacts } from "@bench/core";
import { readResults, writeResults } from "../results/files.ts";
import type { BenchResults, RunResult, Tick } from "../results/types.ts";
import { countingRun, resultsOf } from "./__fixtures__/counting-run.ts";
import { pageSets } from "./command.ts";
import { renderPage } from "./render.ts";
import { servedAloneLines, servedSection } from "./served.ts";

const latency = (p50: number, p99: number): RunResult["delivery"] =>
  ({ produced: 1, distinctOutputs: 1, lost: 0, duplicated: 0, scoresChecked: 1, misScored: 0, maxScoreError: 0, latencyMs: { p50, p99, max: p99, count: 1 } });

/** Window ticks whose CPU is the row's and the server's together, the server holding `server` of each. */
const ticks = (cpu: number, server: number | undefined): Tick[] =>
  [0, 1, 2].map((t) => ({
    t, phase: "window", inputEnd: 0, consumed: 0, outputEnd: 0, cpuPercent: cpu, memMb: 100, processes: 2, instrument: "pss",
    ...(server !== undefined ? { server: { cpuPercent: server, memMb: 40 } } : {}),
  }) as Tick);

/** One counting run a round at `rate` (0.7 of its knee) with these µs, this latency and these ticks, round 1 first. */
const rounds = (product: string, rate: number, micros: number[], ms: [number, number], tickSet: Tick[] = []): RunResult[] =>
  micros.map((m, i) => countingRun(product, rate, m, { round: i + 1, loadShare: 0.7, delivery: latency(...ms), ticks: tickSet }));

const notServed = (product: string, why: string): RunResult =>
  ({ ...countingRun(product, 1, 1), status: "skipped", reason: `calls no model server: ${why}` });

const embedded: BenchResults = resultsOf([
  ...rounds("confluent-kafka", 80_000, [7, 7.2, 6.9], [20, 60]),
  ...rounds("node", 40_000, [12, 12.2, 12.1], [25, 70]),
  ...rounds("spark", 70_000, [16, 16.1, 16.3], [700, 1400]),
]);

const facts = modelServerFacts({ kserve: "0.15.2", onnxruntime: "1.22.0" });
const served: BenchResults = {
  ...resultsOf([
    ...rounds("confluent-kafka", 9_000, [60, 61, 59], [40, 120], ticks(80, 20)),
    ...rounds("node", 8_000, [12.1, 12.3, 11.9], [45, 150], ticks(50, 25)),
    notServed("spark", "Spark's UDFs score in the executor; no client is wired"),
  ]),
  serving: { serving: "served", server: "bench", facts, address: "127.0.0.1:8081", cpuCounted: true },
};

describe("the embedded-or-served section", () => {
  const text = servedSection(embedded, served).join("\n");
  const line = (product: string): string => text.split("\n").find((l) => l.startsWith(`| ${product} |`)) ?? "";

  it("gives each row that ran both ways its µs under each, the server's own µs and share, the knees, the ratio and latency", () => {
    expect(line("confluent-kafka")).toMatch(
      /\| 7\.00 \[[^|]*\| 80,000 \| 60\.00 \[[^|]*\| 15\.00 \[[^|]*\| 25 % \| 9,000 \| 8\.57× \| dearer \| 20 \/ 60 → 40 \/ 120 \|$/,
    );
    expect(line("node")).toMatch(/\| 6\.05 \[[^|]*\| 50 % \| 8,000 \|/);
    expect(line("node")).toContain("| not told apart |");
    expect(text).toContain("Of the 2 rows ranked both ways, 1 is told dearer in CPU served (confluent-kafka 8.57×)");
  });

  it("names where the figures were taken: the rounds' share of each row's own knee, latency in the same rounds", () => {
    expect(text).toContain("µs CPU per inference at 0.7 × knee (of the row's own knee under each)");
    expect(text).toContain("latency is end-to-end in the same rounds");
    expect(text).not.toMatch(/at the (row's own )?knee,/);
  });

  it("sets Crayfish's finding beside each row's knee embedded and served, and names the pairs serving reorders", () => {
    expect(text).toContain("Crayfish (Horchidan et al., EDBT 2024)");
    expect(text).toContain("Here each row's knee, embedded → served: confluent-kafka 80,000 → 9,000 (8.89×), node 40,000 → 8,000 (5.00×).");
    expect(text).toContain("Of the 1 pair of rows told apart in µs both ways, 0 keep their order served and 1 part the other way: " +
      "confluent-kafka / node (embedded confluent-kafka cheaper, served node).");
  });

  it("gives a row that cannot be served its reason, not a row of figures, and names the server with its version, backend, threads and batching", () => {
    expect(line("spark")).toBe("");
    expect(text).toContain("- **spark**: Spark's UDFs score in the executor; no client is wired");
    expect(text).toContain(`${facts.server} 0.15.2`);
    expect(text).toContain(`backend ${facts.backend}; threads: ${facts.threads}; batching: ${facts.batching}`);
    expect(text).toContain("its CPU counts as the row's");
  });

  it("reads the same whichever set is the page's own, and is empty for two sets served the same way", () => {
    expect(servedSection(served, embedded).join("\n")).toBe(text);
    expect(servedSection(embedded, embedded)).toEqual([]);
  });

  it("says a user's server's CPU is not counted", () => {
    const user: BenchResults = { ...served, serving: { serving: "served", server: "user", address: "gpu:8081", cpuCounted: false, why: "it runs elsewhere" } };
    const withUser = servedSection(embedded, user).join("\n");
    expect(withUser).toContain("`--model-server` (gpu:8081). Its CPU is not counted: it runs elsewhere.");
    expect(withUser).toContain("the row's own process tree only");
  });

  it("shows a served set alone with its server and each row's share, and an embedded one with nothing", () => {
    const alone = servedAloneLines(served).join("\n");
    expect(alone).toContain(`${facts.server} 0.15.2`);
    expect(alone).toContain("over its rounds' windows: node 50 %, confluent-kafka 25 %.");
    expect(servedAloneLines(embedded)).toEqual([]);
  });

  it("is on the page after the answer, from render's two files grouped by serving", () => {
    const dir = mkdtempSync(join(tmpdir(), "served-page-"));
    try {
      const [e, s] = [join(dir, "embedded.json"), join(dir, "served.json")];
      const file = (r: BenchResults): BenchResults => ({ ...r, schema: 2, generatedAt: "2026-12-01T18:00:00.000Z" }) as BenchResults;
      writeResults(e, file(embedded));
      writeResults(s, file(served));
      const { page, beside } = pageSets([e, s]);
      expect(page.serving).toBeUndefined();
      expect(beside.otherServing?.serving?.server).toBe("bench");
      const section = servedSection(page, beside.otherServing as BenchResults)[0] as string;
      expect(section).toBe("## Embedded or served: what the call costs");
      expect(() => readResults([e, s])).toThrow("hold rows both embedded and served");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("comes after the answer and before the bench's characteristics on a rendered page; an embedded page alone has none", () => {
    const committed = readResults([join(import.meta.dirname, "__fixtures__", "results.json")]);
    const page = renderPage(committed, { otherServing: served });
    expect(page.indexOf("## Embedded or served: what the call costs")).toBeGreaterThan(page.indexOf("## "));
    expect(page.indexOf("## Embedded or served")).toBeLessThan(page.indexOf("## Bench characteristics"));
    expect(renderPage(committed)).not.toContain("## Embedded or served");
  });
});
