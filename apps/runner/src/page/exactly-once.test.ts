import { join } from "node:path";
import { readResults } from "../results/files.ts";
import type { BenchResults, BrokerRestartResult, FaultResult, RunResult } from "../results/types.ts";
import { countingRun, resultsOf } from "./__fixtures__/counting-run.ts";
import { commitsOf, exactlyOnceSection } from "./exactly-once.ts";
import { renderPage } from "./render.ts";

const latency = (p50: number, p99: number): RunResult["delivery"] =>
  ({ produced: 1, distinctOutputs: 1, lost: 0, duplicated: 0, scoresChecked: 1, misScored: 0, maxScoreError: 0, latencyMs: { p50, p99, max: p99, count: 1 } });

/** One counting run a round at `rate` with these µs and this latency, round 1 first. */
const rounds = (product: string, rate: number, micros: number[], delivery: string, ms: [number, number]): RunResult[] =>
  micros.map((m, i) => countingRun(product, rate, m, { round: i + 1, row: { ...countingRun("x", 1, 1).row, delivery }, delivery: latency(...ms) }));

const atLeastOnce: BenchResults = resultsOf([
  ...rounds("confluent-kafka", 80_000, [7, 7.2, 6.9], "at-least-once (flush, then commit)", [20, 60]),
  ...rounds("kafka-streams", 60_000, [13, 13.2, 13.1], "at-least-once (commit every 1 s)", [30, 900]),
  ...rounds("spark", 70_000, [16, 16.1, 16.3], "at-least-once (micro-batches)", [700, 1400]),
]);

const skipped = (product: string, why: string): RunResult =>
  ({ ...countingRun(product, 1, 1), status: "skipped", reason: `no exactly-once into Kafka: ${why}` });

const fault = (product: string, lost: number, duplicated: number): FaultResult =>
  ({ product, status: "ok", tally: { lost, duplicated } }) as unknown as FaultResult;
const restart = (product: string, variant: "hard" | "clean", duplicated: number): BrokerRestartResult =>
  ({ product, variant, status: "ok", tally: { lost: 0, duplicated } }) as unknown as BrokerRestartResult;

const exactlyOnce: BenchResults = {
  ...resultsOf([
    ...rounds("confluent-kafka", 60_000, [9, 9.3, 9.1], "exactly-once: a transactional loop; a transaction per batch", [25, 80]),
    ...rounds("kafka-streams", 60_000, [13.1, 13.3, 12.9], "exactly-once: exactly_once_v2; every 100 ms", [60, 140]),
    skipped("spark", "Spark's docs: at least once write semantics"),
  ]),
  guarantee: "exactly-once",
  faults: [fault("confluent-kafka", 0, 0), fault("kafka-streams", 0, 0)],
  brokerRestarts: [restart("confluent-kafka", "hard", 0), restart("confluent-kafka", "clean", 0), restart("kafka-streams", "hard", 0)],
};

describe("the exactly-once section", () => {
  const text = exactlyOnceSection(atLeastOnce, exactlyOnce).join("\n");
  const line = (product: string): string => text.split("\n").find((l) => l.startsWith(`| ${product} |`)) ?? "";

  it("gives each row offering it both figures, their ratio, whether their intervals part, the knee, latency, the faults and when it commits", () => {
    expect(line("confluent-kafka")).toMatch(/\| 7\.00 \[[^|]*\| 80,000 \| 9\.10 \[[^|]*\| 60,000 \|/);
    expect(line("confluent-kafka")).toContain("| 1.30× | dearer | lower bound only | 20 / 60 → 25 / 80 | 0 lost, 0 duplicated |");
    expect(line("confluent-kafka")).toContain("hard: 0 lost, 0 duplicated; clean: 0 lost, 0 duplicated | a transaction per batch |");
    expect(line("kafka-streams")).toContain("| not told apart |");
    expect(line("kafka-streams")).toContain("| every 100 ms |");
  });

  it("says which rows are dearer and gives the rows that offer none their reason, not a row of figures", () => {
    expect(text).toContain("Of the 2 rows ranked under both guarantees, 1 is told dearer in CPU under exactly-once (confluent-kafka 1.30×)");
    expect(line("spark")).toBe("");
    expect(text).toContain("- **spark**: Spark's docs: at least once write semantics");
  });

  it("reads the same whichever set is the page's own, and is on the page after the answer", () => {
    expect(exactlyOnceSection(exactlyOnce, atLeastOnce).join("\n")).toBe(text);
    const committed = readResults([join(import.meta.dirname, "__fixtures__", "results.json")]);
    const page = renderPage(committed, { otherGuarantee: exactlyOnce });
    expect(page.indexOf("## Exactly-once: what it costs")).toBeGreaterThan(0);
    expect(page.indexOf("## Exactly-once")).toBeLessThan(page.indexOf("## Bench characteristics"));
    expect(renderPage(committed)).not.toContain("## Exactly-once");
  });

  it("reads when a row commits from its delivery, past any '; ' inside parentheses", () => {
    expect(commitsOf("exactly-once: the sink (prefix per run); a restart resumes; on every checkpoint (every 1 s; Flink sets no default)"))
      .toBe("on every checkpoint (every 1 s; Flink sets no default)");
    expect(commitsOf("at-least-once")).toBe("–");
  });

  describe("capacity, from the runs under both guarantees", () => {
    const withSweeps = (results: BenchResults, brackets: Record<string, { keptUp: number; saturated?: number }>, more: RunResult[]): BenchResults => ({
      ...results,
      runs: [...results.runs, ...more],
      sweeps: Object.entries(brackets).map(([product, bracket]) => (
        { product, knee: bracket.keptUp, bracket, confirmed: true, stoppedBecause: "", steps: [] }
      )),
    });
    const saturatedRun = (product: string, rate: number): RunResult => {
      const run = countingRun(product, rate, 10);
      return { ...run, throughput: { ...run.throughput!, regime: "saturated" } };
    };
    const a = withSweeps(atLeastOnce, { "confluent-kafka": { keptUp: 80_000, saturated: 88_000 }, "kafka-streams": { keptUp: 64_000, saturated: 70_000 } },
      [countingRun("kafka-streams", 64_000, 13), saturatedRun("kafka-streams", 70_000)]);
    const e = withSweeps(exactlyOnce, { "confluent-kafka": { keptUp: 60_000, saturated: 66_000 }, "kafka-streams": { keptUp: 60_000 } },
      [saturatedRun("confluent-kafka", 66_000)]);
    const both = exactlyOnceSection(a, e).join("\n");
    const row = (product: string): string => both.split("\n").find((l) => l.startsWith(`| ${product} |`)) ?? "";

    it("puts each knee's bracket beside its µs and says a row loses capacity when exactly-once saturated at a rate at-least-once held", () => {
      expect(row("confluent-kafka")).toMatch(/\| 80,000–88,000 \| 9\.10 \[[^|]*\| 60,000–66,000 \|/);
      expect(row("confluent-kafka")).toContain("| dearer | loses capacity |");
      expect(both).toContain(
        "losing it under exactly-once (it saturated at a rate at-least-once held): confluent-kafka (at-least-once held 80,000, saturated at 88,000/s; " +
          "exactly-once held 60,000, saturated at 66,000/s)",
      );
    });

    it("calls a lower rate held with nothing saturating above it a lower bound, not a loss", () => {
      expect(row("kafka-streams")).toContain("| 64,000–70,000 (rounds moved to 60,000) | 13.10 [12.61–13.61] | ≥ 60,000 |");
      expect(row("kafka-streams")).toContain("| lower bound only |");
      expect(both).toContain("only a lower bound (nothing above it saturated, so no loss is measured): kafka-streams (at-least-once held 64,000, " +
        "saturated at 70,000/s; exactly-once held 60,000/s)");
    });

    it("tells no loss from a rate at-least-once kept up at once and saturated at once", () => {
      const shaky = withSweeps(atLeastOnce, {}, [saturatedRun("confluent-kafka", 80_000)]);
      const text = exactlyOnceSection(shaky, e).join("\n");
      expect(text.split("\n").find((l) => l.startsWith("| confluent-kafka |"))).toContain("| not told apart |");
    });
  });
});
