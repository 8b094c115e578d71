/**
 * Two sittings of the main command side by side (`render a/results.json --agree-with b/results.json`
 * when both hold rounds): whether each row's 95 % interval of µs per inference overlaps between
 * them, how wide the intervals are, and any pair of rows one sitting calls DIFFERENT one way and
 * the other the other way. It is how the bench's intervals are calibrated: a sitting's interval
 * that another sitting's misses says the interval claims more than the host gives.
 */
import type { BenchResults } from "../results/types.ts";
import { overlaps, type Interval } from "../rounds/intervals.ts";
import { isRanked, MIN_COUNTING_ROUNDS, standings, type RowStanding, type Standings } from "../rounds/standing.ts";
import { median } from "../metrics/stats.ts";
import { table } from "./format.ts";
import { halfWidths, intervalCell } from "./rounds.ts";
import { percent } from "./repeats.ts";

const when = (r: BenchResults): string => r.generatedAt.slice(0, 16).replace("T", " ");

/** The pairs (cheaper first) each sitting calls DIFFERENT, as "a<b". */
function differentPairs(s: Standings): Set<string> {
  return new Set(s.pairs.filter((p) => p.verdict === "DIFFERENT").map((p) => `${p.a}<${p.b}`));
}

export interface SittingsAgreement {
  rows: Array<{ product: string; a?: Interval; b?: Interval; overlap?: boolean }>;
  /** Pairs DIFFERENT in both sittings, in opposite directions. */
  opposite: string[];
  halfWidths: { a: number[]; b: number[] };
}

export function sittingsAgreement(a: BenchResults, b: BenchResults): SittingsAgreement {
  const sa = standings(a);
  const sb = standings(b);
  const products = [...new Set([...sa.rows, ...sb.rows].map((r) => r.product))].sort();
  const rows = products.map((product) => {
    const ra = sa.rows.find((r) => r.product === product);
    const rb = sb.rows.find((r) => r.product === product);
    const ia = ra?.interval;
    const ib = rb?.interval;
    // Only ranked rows have an interval: two one-round points neither overlap nor miss each other.
    const judged = ia !== undefined && ib !== undefined && isRanked(ra as RowStanding) && isRanked(rb as RowStanding);
    return { product, ...(ia ? { a: ia } : {}), ...(ib ? { b: ib } : {}), ...(judged ? { overlap: overlaps(ia, ib) } : {}) };
  });
  const inB = differentPairs(sb);
  const opposite = [...differentPairs(sa)].filter((pair) => inB.has(pair.split("<").reverse().join("<"))).map((pair) => pair.replace("<", " < "));
  return { rows, opposite, halfWidths: { a: halfWidths(sa), b: halfWidths(sb) } };
}

export function sittingsSection(a: BenchResults, b: BenchResults): string[] {
  const g = sittingsAgreement(a, b);
  const judged = g.rows.filter((r) => r.overlap !== undefined);
  const overlapping = judged.filter((r) => r.overlap).length;
  const widths = (xs: number[]): string => (xs.length > 0 ? `${percent(median(xs))} (${percent(Math.min(...xs))}–${percent(Math.max(...xs))})` : "–");
  return [
    "## Two sittings side by side",
    "",
    `This sitting (${when(a)}) and another (${when(b)}): each row's µs CPU per inference at its knee, median [95 % interval] over its rounds. The intervals ` +
      `overlap for **${overlapping} of ${judged.length}** rows with an interval in both (${MIN_COUNTING_ROUNDS} counting rounds or more). ` +
      `Median interval half-width: ${widths(g.halfWidths.a)} here, ` +
      `${widths(g.halfWidths.b)} there. Pairs of rows one sitting ranks apart one way and the other the other way: ` +
      `${g.opposite.length > 0 ? g.opposite.join("; ") : "none"}.`,
    "",
    table(
      ["product", "µs here", "µs there", "here ÷ there", "intervals overlap"],
      g.rows.map((r) => [
        r.product, r.a ? intervalCell(r.a) : "–", r.b ? intervalCell(r.b) : "–", r.a && r.b ? (r.a.median / r.b.median).toFixed(3) : "–",
        r.overlap !== undefined ? (r.overlap ? "yes" : "no") : r.a && r.b ? "– (no interval)" : "–",
      ]),
    ),
    "",
  ];
}
