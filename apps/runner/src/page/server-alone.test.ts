import type { BenchResults, ServerAloneRun } from "../results/types.ts";
import { serverAloneFigures, serverAloneLines } from "./server-alone.ts";

const run = (round: number, one: number[], many: number[]): ServerAloneRun => ({
  round,
  startedAt: "2026-12-06T13:00:00.000Z",
  shapes: [
    { records: 1, usPerRecord: one, usedBy: ["kafka-streams"] },
    { records: 10_000, usPerRecord: many, usedBy: ["node", "confluent-kafka"] },
  ],
});

const served = (runs: ServerAloneRun[], notRun?: string): BenchResults =>
  ({ runs: [], serverAlone: runs, ...(notRun ? { serverAloneNotRun: notRun } : {}) }) as unknown as BenchResults;

describe("the server alone on the page", () => {
  const results = served([run(1, [40, 42, 41], [1.1, 1.0, 1.2]), run(2, [44, 43, 45], [1.3, 1.2, 1.25]), run(3, [39, 40, 41], [1.0, 1.05, 1.1])]);

  it("takes each round's median of its repetitions and gives each shape the median over the rounds with its interval", () => {
    const figures = serverAloneFigures(results);
    expect(figures.map((f) => [f.records, f.interval.median, f.interval.n])).toEqual([[1, 41, 3], [10_000, 1.1, 3]]);
    expect(figures[1]?.usedBy).toEqual(["confluent-kafka", "node"]);
    for (const f of figures) expect(f.interval.low <= f.interval.median && f.interval.median <= f.interval.high).toBe(true);
  });

  it("names each shape with the rows that call so, and how it was timed", () => {
    const text = serverAloneLines(results).join("\n");
    expect(text).toContain("no stream processor and no broker");
    expect(text).toMatch(/over 3 rounds: 1 record a call 41\.00 \[[^\]]+\] \(kafka-streams\); /);
    expect(text).toMatch(/; 10,000 records a call 1\.10 \[[^\]]+\] \(confluent-kafka, node\)\./);
  });

  it("says why when it was not timed, and says nothing for a results file that never timed it", () => {
    expect(serverAloneLines(served([], "timing it after round 1 failed: no answer")).join("\n"))
      .toBe("The server alone was not timed: timing it after round 1 failed: no answer.\n");
    expect(serverAloneLines({ runs: [] } as unknown as BenchResults)).toEqual([]);
  });
});
