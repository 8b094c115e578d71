/**
 * "The model alone": the frozen model's forward timed outside any framework (model-alone/), at
 * each call shape the rows use, once per round; each shape's median over the rounds with its
 * 95 % interval, and each row's µs per inference split into the model at its own shape and the
 * framework around it (the row's median less the model's).
 */
import type { BenchResults } from "../results/types.ts";
import { median } from "../metrics/stats.ts";
import { medianInterval, type Interval } from "../rounds/intervals.ts";
import { dec2, table } from "./format.ts";
import { intervalCell } from "./rounds.ts";
import type { RankedFigure } from "./framework-adds.ts";

export interface ShapeFigure {
  runtime: string;
  records: number;
  /** Over the rounds: each round's median of its repetitions. */
  interval: Interval;
  usedBy: string[];
}

export function shapeFigures(results: BenchResults): ShapeFigure[] {
  const byShape = new Map<string, { runtime: string; records: number; perRound: number[]; usedBy: Set<string> }>();
  for (const run of results.modelAlone ?? []) {
    for (const shape of run.shapes) {
      const key = `${shape.runtime}:${shape.records}`;
      const entry = byShape.get(key) ?? { runtime: shape.runtime, records: shape.records, perRound: [], usedBy: new Set<string>() };
      entry.perRound.push(median(shape.usPerRecord));
      for (const id of shape.usedBy ?? []) entry.usedBy.add(id);
      byShape.set(key, entry);
    }
  }
  return [...byShape.values()].map((e) => ({
    runtime: e.runtime, records: e.records, interval: medianInterval(e.perRound) as Interval, usedBy: [...e.usedBy].sort(),
  }));
}

export function modelAloneSection(results: BenchResults, ranked: ReadonlyMap<string, RankedFigure>): string[] {
  if (results.modelAlone === undefined && results.modelAloneNotRun === undefined) return [];
  const head = ["## The model alone", ""];
  if (results.modelAlone === undefined || results.modelAlone.length === 0) return [...head, `Not timed here: ${results.modelAloneNotRun}.`, ""];
  const shapes = shapeFigures(results);
  const versions = Object.entries(results.modelAlone[0]?.versions ?? {}).map(([k, v]) => `${k} ${v}`).join(", ");
  const split = shapes
    .flatMap((s) => s.usedBy.filter((id) => ranked.has(id)).map((id) => ({ id, s, row: (ranked.get(id) as RankedFigure).micros })))
    .sort((a, b) => a.row - b.row)
    .map(({ id, s, row }) => {
      const framework = row - s.interval.median;
      const share = `${Math.round((100 * framework) / row)} %`;
      return [id, `${s.runtime}, ${s.records.toLocaleString("en-US")} a call`, dec2(row), dec2(s.interval.median), dec2(framework), share];
    });
  return [
    ...head,
    `The model's forward alone (${results.modelAlone[0]?.model}; ${versions}; one intra-op thread), CPU µs per record, timed after each of ` +
      `${results.modelAlone.length} rounds at the call shapes the rows use: the input already a float32 tensor or array, so turning records into it is ` +
      `the framework's share. A row's calls at its knee may hold fewer records than its largest call; the split below reads the model at the largest. ` +
      (results.modelAloneNotRun ? `Timing stopped early: ${results.modelAloneNotRun}.` : ""),
    "",
    table(
      ["runtime", "records a call", "µs per record, median [95 % interval] over rounds", "rows that call it so"],
      shapes.map((s) => [
        s.runtime, s.records.toLocaleString("en-US"), intervalCell(s.interval), s.usedBy.join(", ") || "– (one record a call, for reference)",
      ]),
    ),
    "",
    ...(split.length > 0
      ? [table(["product", "its model call", "µs per inference (row)", "the model alone", "the framework around it", "framework's share"], split), ""]
      : []),
  ];
}
