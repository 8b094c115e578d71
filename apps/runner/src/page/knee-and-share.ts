/**
 * What the load share changes (`--also-at-knee`): each row's µs per inference over its rounds at
 * the sitting's load share beside the same rounds' windows at its knee, with how many rounds
 * counted at each. The ranking reads the share; this section shows what reading the knee would
 * have said, so a reader sees what the choice costs and buys.
 */
import type { BenchResults } from "../results/types.ts";
import { halfWidth, type Interval } from "../rounds/intervals.ts";
import { rankingShare, shareLabel } from "../rounds/load-share.ts";
import { isRanked, standings, type RowStanding } from "../rounds/standing.ts";
import { median } from "../metrics/stats.ts";
import { int, table } from "./format.ts";
import { percent } from "./repeats.ts";
import { intervalCell } from "./rounds.ts";
import { sweepOf } from "../results/sweeps.ts";

/** The results hold rounds at both the load share and the knee. */
export const hasBothShares = (results: BenchResults): boolean =>
  rankingShare(results) !== 1 && results.runs.some((r) => r.round !== undefined && r.loadShare === 1);

const counted = (row: RowStanding | undefined): string => (row === undefined ? "–" : `${row.byRound.size} of ${row.rounds.length}`);
const figure = (row: RowStanding | undefined): string => (row?.interval === undefined ? "–" : intervalCell(row.interval));

/** The share's median over the knee's, when both have one. */
function ratioCell(atShare: RowStanding | undefined, atKnee: RowStanding | undefined): string {
  const a = atShare?.interval?.median;
  const k = atKnee?.interval?.median;
  return a !== undefined && k !== undefined && k > 0 ? `${(a / k).toFixed(2)}×` : "–";
}

/** "7 of 11 rows counted every round; median half-width 4.1 %, widest 9.0 %". */
function summary(rows: readonly RowStanding[]): string {
  const every = rows.filter((r) => r.rounds.length > 0 && r.byRound.size === r.rounds.length).length;
  const widths = rows.filter(isRanked).map((r) => halfWidth(r.interval as Interval)).filter((w) => Number.isFinite(w));
  const spread = widths.length > 0 ? `; median half-width ${percent(median(widths))}, widest ${percent(Math.max(...widths))}` : "";
  return `${every} of ${rows.length} rows counted every round${spread}`;
}

export function kneeAndShareSection(results: BenchResults): string[] {
  if (!hasBothShares(results)) return [];
  const share = rankingShare(results);
  const atShare = standings(results, share);
  const atKnee = standings(results, 1);
  const products = atShare.rows.map((r) => r.product);
  const rows = products.map((p) => {
    const s = atShare.rows.find((r) => r.product === p);
    const k = atKnee.rows.find((r) => r.product === p);
    const knee = sweepOf(results, p)?.knee;
    return [p, knee !== undefined ? int(knee) : "–", figure(k), counted(k), figure(s), counted(s), ratioCell(s, k)];
  });
  return [
    `## At the knee and at ${shareLabel(share)}`,
    "",
    `Every round measured each row twice in one session: first at ${shareLabel(share)}, the ranking's figure, then at its knee. At the knee: ` +
      `${summary(atKnee.rows)}. At ${shareLabel(share)}: ${summary(atShare.rows)}. A round that did not keep up has no figure; a row with few counting ` +
      "rounds gets a wide interval and shares ranks it might not share with more.",
    "",
    table(
      ["product", "knee/s", "µs at the knee [95 %]", "rounds counted", `µs at ${shareLabel(share)} [95 %]`, "rounds counted", "share ÷ knee"],
      rows,
    ),
    "",
  ];
}
