/**
 * "Two models": the same rows under a lighter and a heavier frozen model, from two results sets
 * of one sitting (render merges them). Per row: µs CPU per inference at the load share of its knee under each model,
 * median [95 % interval] over its rounds, and its rank among the rows ranked under that model;
 * the model alone at the row's own call shape under each (model-alone.ts), and the framework's
 * share (the row less the model alone, over the row). Then what changed, read from the pairwise
 * verdicts: a pair ranked apart under the lighter model keeps its order, ties or reverses under
 * the heavier one, and pairs not told apart before may be told apart now.
 */
import { modelOfResults } from "../results/model.ts";
import type { BenchResults, ModelRecord } from "../results/types.ts";
import { isRanked, rankLabel, standings, type RowStanding, type Standings } from "../rounds/standing.ts";
import { median } from "../metrics/stats.ts";
import { rankingShare, shareLabel } from "../rounds/load-share.ts";
import { isCeiling } from "./answer.ts";
import { dec2, int, table } from "./format.ts";
import { rowShape, shapeFigures, type ShapeFigure } from "./model-alone.ts";
import { intervalCell, unrankedCell } from "./rounds.ts";
import { medianSpeed } from "./sittings.ts";

/** The section's heading starts so; page.html places the answer's charts before it. */
export const TWO_MODELS_HEADING = "Two models";

interface Side {
  model: ModelRecord;
  results: BenchResults;
  standings: Standings;
  rows: Map<string, RowStanding>;
  shapes: ShapeFigure[];
  /** Rows that republish without scoring: no model call, so no model or framework share. */
  ceilings: Set<string>;
}

function sideOf(results: BenchResults): Side {
  const s = standings(results);
  const ceilings = new Set(results.runs.filter(isCeiling).map((r) => r.product));
  return { model: modelOfResults(results), results, standings: s, rows: new Map(s.rows.map((r) => [r.product, r])), shapes: shapeFigures(results), ceilings };
}

/** The row's figure and the model alone at its own call shape, when the row is ranked under this model. */
interface RowUnderModel {
  row: RowStanding;
  micros: number;
  modelAlone?: { shape: ShapeFigure; micros: number; framework: number; share: number };
}

function underModel(side: Side, product: string): RowUnderModel | undefined {
  const row = side.rows.get(product);
  if (row === undefined || !isRanked(row) || row.interval === undefined) return undefined;
  const micros = row.interval.median;
  const run = row.rounds[0]?.run;
  // The model alone in the row's own runtime only: no other runtime's figure is the row's.
  const shape = side.ceilings.has(product) || run === undefined ? undefined : rowShape(side.results, side.shapes, run);
  if (shape === undefined) return { row, micros };
  const framework = micros - shape.interval.median;
  return { row, micros, modelAlone: { shape, micros: shape.interval.median, framework, share: framework / micros } };
}

export interface PairChanges {
  /** Ranked apart under both, the same row cheaper. */
  kept: Array<[string, string]>;
  /** Ranked apart under the lighter model, not told apart (or found the same) under the heavier. */
  tied: Array<[string, string]>;
  /** Ranked apart under both, the other row cheaper under the heavier: [cheaper under the lighter, cheaper under the heavier]. */
  reversed: Array<[string, string]>;
  /** Not told apart under the lighter model, ranked apart under the heavier: [cheaper, dearer] under the heavier. */
  separated: Array<[string, string]>;
}

const pairKey = (x: string, y: string): string => [x, y].sort().join("\u0000");

/** How each pair of rows ranked under both models moved; a pair's cheaper row is its `a` when DIFFERENT (standing.ts). */
export function pairChanges(lighter: Standings, heavier: Standings): PairChanges {
  const heavy = new Map(heavier.pairs.map((p) => [pairKey(p.a, p.b), p]));
  const changes: PairChanges = { kept: [], tied: [], reversed: [], separated: [] };
  for (const light of lighter.pairs) {
    const later = heavy.get(pairKey(light.a, light.b));
    if (later === undefined) continue;
    if (light.verdict === "DIFFERENT") {
      if (later.verdict !== "DIFFERENT") changes.tied.push([light.a, light.b]);
      else if (later.a === light.a) changes.kept.push([light.a, light.b]);
      else changes.reversed.push([light.a, later.a]);
    } else if (later.verdict === "DIFFERENT") changes.separated.push([later.a, later.b]);
  }
  return changes;
}

const network = (m: ModelRecord): string => `4-${m.hidden.join("-")}-1`;
const modelWords = (m: ModelRecord): string => `${m.name} (${network(m)}, ${int(m.multiplyAddsPerRecord)} multiply-adds a record)`;
const arrow = (a: string, b: string): string => `${a} → ${b}`;
const shareCell = (f: RowUnderModel | undefined): string => (f?.modelAlone === undefined ? "–" : `${Math.round(100 * f.modelAlone.share)} %`);
const aloneCell = (f: RowUnderModel | undefined): string => (f?.modelAlone === undefined ? "–" : dec2(f.modelAlone.micros));
const frameworkCell = (f: RowUnderModel | undefined): string => (f?.modelAlone === undefined ? "–" : dec2(f.modelAlone.framework));

function figureCells(side: Side, product: string, f: RowUnderModel | undefined): [string, string] {
  if (f !== undefined) return [intervalCell(f.row.interval as NonNullable<RowStanding["interval"]>), rankLabel(f.row)];
  return [unrankedCell(side.results, side.rows.get(product), product), "–"];
}

function callCell(light: RowUnderModel | undefined, heavy: RowUnderModel | undefined): string {
  const shape = heavy?.modelAlone?.shape ?? light?.modelAlone?.shape;
  return shape === undefined ? "–" : `${shape.runtime}, ${shape.records.toLocaleString("en-US")} a call`;
}

function rowCells(lighter: Side, heavier: Side, product: string): string[] {
  const light = underModel(lighter, product);
  const heavy = underModel(heavier, product);
  const knee = (side: Side): string => {
    const row = side.rows.get(product);
    return row === undefined ? "–" : int(row.rate);
  };
  return [
    product, callCell(light, heavy),
    ...figureCells(lighter, product, light), ...figureCells(heavier, product, heavy),
    arrow(knee(lighter), knee(heavier)),
    arrow(aloneCell(light), aloneCell(heavy)), arrow(frameworkCell(light), frameworkCell(heavy)), arrow(shareCell(light), shareCell(heavy)),
  ];
}

/** The rows in the lighter model's order, then rows ranked only under the heavier one. */
function rowOrder(lighter: Side, heavier: Side): string[] {
  const seen = new Set<string>();
  return [...lighter.standings.rows, ...heavier.standings.rows].map((r) => r.product).filter((p) => !seen.has(p) && (seen.add(p), true));
}

/** The dearest scoring row over the cheapest, among the rows ranked under this model: how much the choice of framework still weighs. */
function spread(side: Side, products: readonly string[]): { cheapest: string; dearest: string; times: number } | undefined {
  const figures = products
    .filter((p) => !side.ceilings.has(p))
    .map((p) => ({ p, f: underModel(side, p) }))
    .filter((x): x is { p: string; f: RowUnderModel } => x.f !== undefined)
    .sort((a, b) => a.f.micros - b.f.micros);
  const [first, last] = [figures[0], figures.at(-1)];
  if (first === undefined || last === undefined || first === last) return undefined;
  return { cheapest: first.p, dearest: last.p, times: last.f.micros / first.f.micros };
}

const pairList = (pairs: Array<[string, string]>, joiner: string): string => pairs.map(([x, y]) => `${x} ${joiner} ${y}`).join("; ");

/** One paragraph: what changed from the lighter model to the heavier, from the figures above it. */
function whatChanged(lighter: Side, heavier: Side, products: readonly string[]): string {
  const c = pairChanges(lighter.standings, heavier.standings);
  const apart = c.kept.length + c.tied.length + c.reversed.length;
  const [a, b] = [spread(lighter, products), spread(heavier, products)];
  const shares = (side: Side): number[] => products.flatMap((p) => underModel(side, p)?.modelAlone?.share ?? []);
  const [sa, sb] = [shares(lighter), shares(heavier)];
  const spreadWords = a !== undefined && b !== undefined
    ? ` The dearest scoring row costs ${a.times.toFixed(1)}× the cheapest under ${lighter.model.name} (${a.dearest} over ${a.cheapest}) and ` +
      `${b.times.toFixed(1)}× under ${heavier.model.name} (${b.dearest} over ${b.cheapest}).`
    : "";
  const shareWords = sa.length > 0 && sb.length > 0
    ? ` The framework's share of a row's cost, median over the rows split above: ${Math.round(100 * median(sa))} % under ${lighter.model.name}, ` +
      `${Math.round(100 * median(sb))} % under ${heavier.model.name}.`
    : "";
  const reversed = c.reversed.length > 0 ? ` (${pairList(c.reversed, "was cheaper than, now dearer than")})` : "";
  const separated = c.separated.length > 0 ? ` (${pairList(c.separated, "cheaper than")})` : "";
  const verb = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;
  return `What changed: of the pairs of rows ranked under both models, ${verb(apart, "is", "are")} ranked apart under ${lighter.model.name}; under ` +
    `${heavier.model.name} ${verb(c.kept.length, "keeps its", "keep their")} order, ${verb(c.tied.length, "is", "are")} no longer told apart and ` +
    `${verb(c.reversed.length, "reverses", "reverse")}${reversed}; ${verb(c.separated.length, "pair", "pairs")} not told apart under ` +
    `${lighter.model.name} ${c.separated.length === 1 ? "is" : "are"} ranked apart under ${heavier.model.name}${separated}.${spreadWords}${shareWords}`;
}

/** Each sitting's median speed index: raw µs compare across the two only as far as the host held its speed. */
function speedWords(lighter: Side, heavier: Side): string {
  const [a, b] = [medianSpeed(lighter.results), medianSpeed(heavier.results)];
  if (a === undefined || b === undefined) return "";
  return ` The host's median speed index was ${int(a)} in the ${lighter.model.name} sitting and ${int(b)} in the ${heavier.model.name} one ` +
    `(${(b / a).toFixed(2)} of it): a framework's µs that differ by about that ratio between the two may be the host, not the model.`;
}

/** The section, lighter model first whichever set the page's body reads. */
export function twoModelsSection(one: BenchResults, other: BenchResults): string[] {
  const [lighter, heavier] = [sideOf(one), sideOf(other)].sort((x, y) => x.model.multiplyAddsPerRecord - y.model.multiplyAddsPerRecord) as [Side, Side];
  const products = rowOrder(lighter, heavier);
  const [l, h] = [lighter.model.name, heavier.model.name];
  return [
    `## ${TWO_MODELS_HEADING}: ${l} and ${h}`,
    "",
    `The same rows in the same sitting under two frozen models: ${modelWords(lighter.model)} and ${modelWords(heavier.model)}, one intra-op thread in ` +
      `every runtime. Each row's µs CPU per inference at ${shareLabel(rankingShare(lighter.results))} (of its own knee under each model), median [95 % ` +
      "interval] over its rounds, and its rank among the " +
      "rows ranked under that model (ranks shared where rows are not told apart). The model alone is the model's forward at the row's own call shape, " +
      "timed outside any framework after each round (see The model alone); the framework is the row less the model alone, and its share is that over " +
      `the row. A → B reads lighter model → heavier model.${speedWords(lighter, heavier)}`,
    "",
    table(
      ["product", "its model call", `${l}: µs [95 % interval]`, "rank", `${h}: µs [95 % interval]`, "rank", "knee/s", "the model alone, µs",
        "the framework, µs", "framework's share"],
      products.map((p) => rowCells(lighter, heavier, p)),
    ),
    "",
    whatChanged(lighter, heavier, products),
    "",
  ];
}
