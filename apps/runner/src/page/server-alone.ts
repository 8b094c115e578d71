/**
 * The model server alone on the page: what the bench's own server cost per record when the runner
 * called it back to back after each round (serving/server-alone.ts), at each served row's call
 * shape, median [95 % interval] over the rounds.
 */
import { median } from "../metrics/stats.ts";
import type { BenchResults } from "../results/types.ts";
import { medianIntervals, type Interval } from "../rounds/intervals.ts";
import { int } from "./format.ts";
import { intervalCell } from "./rounds.ts";

export interface ServerAloneFigure {
  records: number;
  usedBy: string[];
  /** Over the rounds: each round's median of its repetitions. */
  interval: Interval;
}

/** The server alone at each call shape: each round's median of its repetitions, median [95 % interval] over the rounds. */
export function serverAloneFigures(served: BenchResults): ServerAloneFigure[] {
  const byShape = new Map<number, { usedBy: Set<string>; perRound: number[] }>();
  for (const run of served.serverAlone ?? []) {
    for (const shape of run.shapes) {
      const entry = byShape.get(shape.records) ?? { usedBy: new Set<string>(), perRound: [] };
      for (const p of shape.usedBy) entry.usedBy.add(p);
      if (shape.usPerRecord.length > 0) entry.perRound.push(median(shape.usPerRecord));
      byShape.set(shape.records, entry);
    }
  }
  // Every call shape is timed back to back after the same rounds: their spreads are read together, as the rows' are.
  const intervals = medianIntervals(new Map([...byShape].map(([records, e]) => [records, e.perRound])));
  return [...byShape.entries()].sort(([a], [b]) => a - b).flatMap(([records, e]) => {
    const interval = intervals.get(records);
    return interval === undefined ? [] : [{ records, usedBy: [...e.usedBy].sort(), interval }];
  });
}

/** What the server costs with no row around it, at each served row's call shape; or why it was not timed. */
export function serverAloneLines(served: BenchResults): string[] {
  const figures = serverAloneFigures(served);
  if (figures.length === 0) return served.serverAloneNotRun ? [`The server alone was not timed: ${served.serverAloneNotRun}.`, ""] : [];
  const cells = figures.map((f) => `${int(f.records)} ${f.records === 1 ? "record" : "records"} a call ${intervalCell(f.interval)} (${f.usedBy.join(", ")})`);
  return [
    "The server alone: after each round the runner's client calls it back to back, with no stream processor and no broker, at each served row's " +
      `largest call; its process tree's µs CPU per record, median [95 % interval] over ${figures[0]?.interval.n ?? 0} rounds: ${cells.join("; ")}. ` +
      "A row's own calls at its rounds' rate may hold fewer records than its largest, and cost the server more per record." +
      (served.serverAloneNotRun ? ` It stopped being timed: ${served.serverAloneNotRun}.` : ""),
    "",
  ];
}

