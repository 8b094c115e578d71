/**
 * Two sittings of the main command side by side (`render a/results.json --agree-with b/results.json`
 * when both hold rounds): whether each row's 95 % interval of µs per inference overlaps between
 * them, how wide the intervals are, and any pair of rows one sitting calls DIFFERENT one way and
 * the other the other way. It is how the bench's intervals are calibrated: a sitting's interval
 * that another sitting's misses says the interval claims more than the host gives.
 */
import type { BenchResults, RunResult } from "../results/types.ts";
import { overlaps, type Interval } from "../rounds/intervals.ts";
import { isRanked, MIN_COUNTING_ROUNDS, standings, type RowStanding, type Standings } from "../rounds/standing.ts";
import { median } from "../metrics/stats.ts";
import { int, table } from "./format.ts";
import { microsAtReference, runSpeed } from "./speed.ts";
import { REFERENCE_SPEED } from "../run/speed-index.ts";
import { intervalCell } from "./rounds.ts";
import { halfWidths } from "../rounds/standing.ts";
import { percent } from "./repeats.ts";
import { rankingShare, shareLabel } from "../rounds/load-share.ts";
import { sweepOf } from "../results/sweeps.ts";

const when = (r: BenchResults): string => r.generatedAt.slice(0, 16).replace("T", " ");

/** The pairs (cheaper first) each sitting calls DIFFERENT, as "a<b". */
function differentPairs(s: Standings): Set<string> {
  return new Set(s.pairs.filter((p) => p.verdict === "DIFFERENT").map((p) => `${p.a}<${p.b}`));
}

type ComparedRow = { product: string; a?: Interval; b?: Interval; overlap?: boolean };

export interface SittingsAgreement {
  rows: ComparedRow[];
  /** Pairs DIFFERENT in both sittings, in opposite directions. */
  opposite: string[];
  halfWidths: { a: number[]; b: number[] };
  /**
   * The rows again with every run's µs at the reference speed (speed.ts), and this sitting's median
   * speed index over the other's: a host that ran faster in one sitting moves every row's raw µs
   * together, and the index read beside each run takes that out. Absent when a run has no reading.
   */
  atReference?: { rows: ComparedRow[]; speedRatio: number; halfWidths: { a: number[]; b: number[] } };
}

/** Each row's interval in both sittings, and whether they overlap where both are ranked. */
function comparedRows(sa: Standings, sb: Standings): ComparedRow[] {
  const products = [...new Set([...sa.rows, ...sb.rows].map((r) => r.product))].sort();
  return products.map((product) => {
    const ra = sa.rows.find((r) => r.product === product);
    const rb = sb.rows.find((r) => r.product === product);
    const ia = ra?.interval;
    const ib = rb?.interval;
    // Only ranked rows have an interval: two one-round points neither overlap nor miss each other.
    const judged = ia !== undefined && ib !== undefined && isRanked(ra as RowStanding) && isRanked(rb as RowStanding);
    return { product, ...(ia ? { a: ia } : {}), ...(ib ? { b: ib } : {}), ...(judged ? { overlap: overlaps(ia, ib) } : {}) };
  });
}

/** The results with each run's µs per inference at the reference speed; undefined when a measured run has no speed reading. */
export function atReferenceSpeed(results: BenchResults): BenchResults | undefined {
  const runs: RunResult[] = [];
  for (const run of results.runs) {
    if (run.throughput === undefined) {
      runs.push(run);
      continue;
    }
    const micros = microsAtReference(run);
    if (micros === undefined) return undefined;
    runs.push({ ...run, throughput: { ...run.throughput, cpuMicrosPerInference: micros } });
  }
  return { ...results, runs };
}

/** The median speed index over a results set's runs that have one. */
export function medianSpeed(results: BenchResults): number | undefined {
  const speeds = results.runs.map(runSpeed).filter((v): v is number => v !== undefined);
  return speeds.length > 0 ? median(speeds) : undefined;
}

export function sittingsAgreement(a: BenchResults, b: BenchResults): SittingsAgreement {
  const sa = standings(a);
  const sb = standings(b);
  const inB = differentPairs(sb);
  const opposite = [...differentPairs(sa)].filter((pair) => inB.has(pair.split("<").reverse().join("<"))).map((pair) => pair.replace("<", " < "));
  const g: SittingsAgreement = { rows: comparedRows(sa, sb), opposite, halfWidths: { a: halfWidths(sa), b: halfWidths(sb) } };
  const [refA, refB, speedA, speedB] = [atReferenceSpeed(a), atReferenceSpeed(b), medianSpeed(a), medianSpeed(b)];
  if (refA && refB && speedA !== undefined && speedB !== undefined) {
    const [ra, rb] = [standings(refA), standings(refB)];
    g.atReference = { rows: comparedRows(ra, rb), speedRatio: speedA / speedB, halfWidths: { a: halfWidths(ra), b: halfWidths(rb) } };
  }
  return g;
}

/** A row's knee in both sittings: one search each, so a band, not a figure with an interval. */
export interface KneePair {
  product: string;
  here: number;
  there: number;
  /** Either knee is only a lower bound (gendata bounded its search). */
  bounded: boolean;
}

/** The knees both sittings' searches found, row by row. */
export function kneePairs(a: BenchResults, b: BenchResults): KneePair[] {
  const pairs: KneePair[] = [];
  for (const sa of a.sweeps ?? []) {
    const sb = sweepOf(b, sa.product);
    if (sa.knee === undefined || sb?.knee === undefined) continue;
    const bounded = sa.bracket?.saturated === undefined || sb.bracket?.saturated === undefined;
    pairs.push({ product: sa.product, here: sa.knee, there: sb.knee, bounded });
  }
  return pairs;
}

/** The knees' sentence: how far one search's knee moved between the sittings (bounded knees left out). */
function kneeSentence(pairs: readonly KneePair[]): string {
  const ratios = pairs.filter((p) => !p.bounded).map((p) => p.here / p.there);
  if (ratios.length === 0) return "";
  return (
    ` Knees (one search each, so no interval): here ÷ there ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}, median ` +
    `${median(ratios).toFixed(2)}, over the ${ratios.length} rows whose knee both searches bracketed (a knee gendata bounded is left out).`
  );
}

const kneeCell = (p: KneePair | undefined): string =>
  p === undefined ? "–" : `${p.bounded ? "≥ " : ""}${int(p.here)} ÷ ${int(p.there)}${p.bounded ? "" : ` = ${(p.here / p.there).toFixed(2)}`}`;

/** Where each sitting's ranked figure was taken: one share of the knee for both, or each its own; each at its own sitting's knee. */
function whereRanked(a: BenchResults, b: BenchResults): string {
  const [here, there] = [rankingShare(a), rankingShare(b)];
  const at = here === there ? `at ${shareLabel(here)}` : `at ${shareLabel(here)} here and ${shareLabel(there)} there`;
  return `${at} (each sitting's own knee: where two sittings' knees differ, so do the rates compared)`;
}

export function sittingsSection(a: BenchResults, b: BenchResults): string[] {
  const g = sittingsAgreement(a, b);
  const knees = kneePairs(a, b);
  const kneeColumn = knees.length > 0 ? ["knee here ÷ there"] : [];
  const widths = (xs: number[]): string => (xs.length > 0 ? `${percent(median(xs))} (${percent(Math.min(...xs))}–${percent(Math.max(...xs))})` : "–");
  const ref = g.atReference;
  const refRow = (product: string): ComparedRow | undefined => ref?.rows.find((r) => r.product === product);
  const overlapCell = (r: ComparedRow | undefined): string =>
    r === undefined ? "–" : r.overlap !== undefined ? (r.overlap ? "yes" : "no") : r.a && r.b ? "– (no interval)" : "–";
  const refColumns = ref ? ["@ ref here", "@ ref there", "overlap @ ref"] : [];
  return [
    "## Two sittings side by side",
    "",
    `This sitting (${when(a)}) and another (${when(b)}): each row's µs CPU per inference ${whereRanked(a, b)}, median [95 % interval] over its ` +
      "rounds. The intervals " +
      `overlap for **${overlapCount(g.rows)}** rows with an interval in both (${MIN_COUNTING_ROUNDS} counting rounds or more). ` +
      `Median interval half-width: ${widths(g.halfWidths.a)} here, ` +
      `${widths(g.halfWidths.b)} there. Pairs of rows one sitting ranks apart one way and the other the other way: ` +
      `${g.opposite.length > 0 ? g.opposite.join("; ") : "none"}.` +
      (ref
        ? ` This sitting's median speed index is ${ref.speedRatio.toFixed(3)} of the other's; at the reference speed (each run's µs × its own speed ` +
          `index ÷ ${int(REFERENCE_SPEED)}, which takes out a host that ran faster or slower in one sitting) the intervals overlap for ` +
          `**${overlapCount(ref.rows)}** rows, with median half-widths ${widths(ref.halfWidths.a)} here and ${widths(ref.halfWidths.b)} there.`
        : "") +
      kneeSentence(knees),
    "",
    table(
      ["product", "µs here", "µs there", "here ÷ there", "intervals overlap", ...refColumns, ...kneeColumn],
      g.rows.map((r) => {
        const q = refRow(r.product);
        return [
          r.product, r.a ? intervalCell(r.a) : "–", r.b ? intervalCell(r.b) : "–",
          r.a && r.b ? (r.a.median / r.b.median).toFixed(3) : "–", overlapCell(r),
          ...(ref ? [q?.a ? intervalCell(q.a) : "–", q?.b ? intervalCell(q.b) : "–", overlapCell(q)] : []),
          ...(knees.length > 0 ? [kneeCell(knees.find((k) => k.product === r.product))] : []),
        ];
      }),
    ),
    "",
  ];
}

/** "k of n": of the rows judged (an interval in both), how many overlap. */
function overlapCount(rows: readonly ComparedRow[]): string {
  const judged = rows.filter((r) => r.overlap !== undefined);
  return `${judged.filter((r) => r.overlap).length} of ${judged.length}`;
}
