/**
 * "Exactly-once": what the guarantee costs each row whose framework offers it, from two results
 * sets of one sitting (render merges them): the main command at-least-once and again under
 * `--guarantee exactly-once`, with that guarantee's `--faults` runs. Per row: µs CPU per inference
 * at the load share of its knee under each, median [95 % interval] over its rounds, their ratio and
 * whether the intervals tell them apart; the knee under each with its search's bracket, and whether
 * capacity was lost; end-to-end latency in the same rounds (under exactly-once a record
 * counts as out when its transaction commits); what a kill -9 and the broker's restarts did under
 * exactly-once, read committed; when the row commits. Then the rows that offer none, with the
 * reason their adapter gives from the framework's docs.
 */
import { NO_EXACTLY_ONCE, type Guarantee } from "@bench/core";
import { guaranteeOf } from "../results/files.ts";
import type { BenchResults, BrokerRestartResult, FaultResult } from "../results/types.ts";
import { median } from "../metrics/stats.ts";
import { isRanked, standings, type RowStanding } from "../rounds/standing.ts";
import { int, table } from "./format.ts";
import { intervalCell, unrankedCell } from "./rounds.ts";
import { rankingShare, shareLabel } from "../rounds/load-share.ts";
import { sweepOf } from "../results/sweeps.ts";

/** The section's heading starts so. */
export const EXACTLY_ONCE_HEADING = "Exactly-once";

export interface Side {
  results: BenchResults;
  rows: Map<string, RowStanding>;
}

export const sideOf = (results: BenchResults): Side => ({ results, rows: new Map(standings(results).rows.map((r) => [r.product, r])) });

export const rankedInterval = (side: Side, product: string): RowStanding["interval"] => {
  const row = side.rows.get(product);
  return row !== undefined && isRanked(row) ? row.interval : undefined;
};

export function figureCell(side: Side, product: string): string {
  const interval = rankedInterval(side, product);
  return interval !== undefined ? intervalCell(interval) : unrankedCell(side.results, side.rows.get(product), product);
}

/** Exactly-once over at-least-once, and whether their intervals tell them apart. */
function ratioCells(atLeastOnce: Side, exactlyOnce: Side, product: string): [string, string] {
  const [a, e] = [rankedInterval(atLeastOnce, product), rankedInterval(exactlyOnce, product)];
  if (a === undefined || e === undefined) return ["–", "–"];
  const verdict = e.low > a.high ? "dearer" : e.high < a.low ? "cheaper" : "not told apart";
  return [`${(e.median / a.median).toFixed(2)}×`, verdict];
}

/** Median over the row's counting rounds of each round's end-to-end p50 and p99, in ms. */
export function latencyCell(side: Side, product: string): string {
  const row = side.rows.get(product);
  const latencies = (row?.rounds ?? []).filter((r) => r.counts).flatMap((r) => (r.run.delivery?.latencyMs ? [r.run.delivery.latencyMs] : []));
  if (latencies.length === 0) return "–";
  return `${int(median(latencies.map((l) => l.p50)))} / ${int(median(latencies.map((l) => l.p99)))}`;
}

const tallyWords = (t: { lost: number; duplicated: number } | undefined): string =>
  t === undefined ? "no tally" : `${int(t.lost)} lost, ${int(t.duplicated)} duplicated`;

function killCell(faults: readonly FaultResult[], product: string): string {
  const run = faults.find((f) => f.product === product);
  if (run === undefined) return "not run";
  return run.status === "ok" ? tallyWords(run.tally) : `${run.status}: ${run.reason?.split("\n")[0] ?? "no reason"}`;
}

function restartsCell(restarts: readonly BrokerRestartResult[], product: string): string {
  const runs = restarts.filter((r) => r.product === product);
  if (runs.length === 0) return "not run";
  return runs
    .map((r) => `${r.variant}: ${r.status === "ok" ? tallyWords(r.tally) : `${r.status}${r.reason ? ` (${r.reason.split("\n")[0]})` : ""}`}`)
    .join("; ");
}

/**
 * When the row commits, from its delivery under exactly-once ("exactly-once: how; commits"): the
 * text after the last "; " outside parentheses, since either part may hold "; " within them.
 */
export function commitsOf(delivery: string): string {
  let depth = 0;
  for (let i = delivery.length - 1; i > 0; i--) {
    const c = delivery[i];
    if (c === ")") depth++;
    else if (c === "(") depth--;
    else if (depth === 0 && c === " " && delivery[i - 1] === ";") return delivery.slice(i + 1);
  }
  return "–";
}

function commitsCell(exactlyOnce: BenchResults, product: string): string {
  return commitsOf(exactlyOnce.runs.find((r) => r.product === product && r.status !== "skipped")?.row.delivery ?? "");
}

/** The rows the exactly-once bench ran, in the at-least-once ranking's order, then any it ranked alone. */
function rowsOffering(atLeastOnce: Side, exactlyOnce: Side): string[] {
  const ran = new Set(exactlyOnce.results.runs.filter((r) => r.status !== "skipped").map((r) => r.product));
  const order = [...atLeastOnce.rows.keys(), ...exactlyOnce.rows.keys(), ...ran];
  return [...new Set(order)].filter((p) => ran.has(p));
}

function notOfferedLines(exactlyOnce: BenchResults): string[] {
  const skipped = exactlyOnce.runs.filter((r) => r.status === "skipped" && r.reason?.startsWith(NO_EXACTLY_ONCE));
  if (skipped.length === 0) return [];
  return ["Rows whose framework offers no exactly-once into Kafka, as their adapters read its docs:", "",
    ...skipped.map((r) => `- **${r.product}**: ${(r.reason as string).slice(NO_EXACTLY_ONCE.length)}`), ""];
}

/** A row's knee under one guarantee: the search's bracket when it has one, and the rate its rounds ended at. */
export interface KneeRange {
  keptUp: number;
  /** The lowest rate above the knee that saturated; absent: none did, so the knee is a lower bound. */
  saturated?: number;
  bracketed: boolean;
  rounds: number;
  /** A round fell behind and moved the row's later rounds down (at the knee in older results: their rate is under it). */
  moved: boolean;
}

export function kneeRange(side: Side, product: string): KneeRange | undefined {
  const row = side.rows.get(product);
  const bracket = sweepOf(side.results, product)?.bracket;
  const keptUp = bracket?.keptUp ?? row?.rate;
  if (keptUp === undefined) return undefined;
  const saturated = bracket?.saturated !== undefined ? { saturated: bracket.saturated } : {};
  const rounds = row?.rate ?? keptUp;
  const moved = rankingShare(side.results) === 1 ? rounds !== keptUp : (side.results.rounds?.moves ?? []).some((m) => m.product === product);
  return { keptUp, ...saturated, bracketed: bracket !== undefined, rounds, moved };
}

/** "122,000–137,000", "≥ 62,300" (nothing above it saturated), or the rate alone with no search bracket; where its rounds moved down to, if they did. */
export function kneeCell(k: KneeRange | undefined): string {
  if (k === undefined) return "–";
  const range = !k.bracketed ? int(k.keptUp) : k.saturated !== undefined ? `${int(k.keptUp)}–${int(k.saturated)}` : `≥ ${int(k.keptUp)}`;
  return k.moved ? `${range} (rounds moved to ${int(k.rounds)})` : range;
}

/**
 * What a row's runs under one guarantee show of its capacity, from the runs themselves (a knee the
 * rounds moved to may never have been run): the highest offered rate at which every quiet run kept
 * up (settled), and the lowest at which a quiet run saturated, or the search's bracket says it does.
 */
interface CapacityEvidence {
  held?: number;
  saturatedAt?: number;
}

function capacityEvidence(side: Side, product: string): CapacityEvidence {
  const runs = side.results.runs.filter((r) => r.product === product && r.status === "ok" && r.settings.offeredRate > 0 && r.conditions?.noisy !== true);
  const paced = runs.filter((r) => r.throughput?.regime === "saturated").map((r) => r.settings.offeredRate);
  // The search's own bracket counts a settled drain's rate as saturating (nothing consumes faster than it drains).
  const bracket = sweepOf(side.results, product)?.bracket?.saturated;
  const saturated = bracket !== undefined ? [...paced, bracket] : paced;
  const keptUp = runs.filter((r) => r.throughput?.regime === "keep-up" && r.settled !== false).map((r) => r.settings.offeredRate);
  const held = keptUp.filter((rate) => !saturated.includes(rate));
  return { ...(held.length > 0 ? { held: Math.max(...held) } : {}), ...(saturated.length > 0 ? { saturatedAt: Math.min(...saturated) } : {}) };
}

type Capacity = "loses capacity" | "gains capacity" | "not told apart" | "lower bound only" | "–";

/**
 * Capacity is told apart only by a rate one guarantee held in every run and the other saturated
 * at: a guarantee that saturated nowhere above a lower rate it held gives a lower bound, which
 * tells no loss.
 */
function capacityOf(a: CapacityEvidence, e: CapacityEvidence): Capacity {
  if (a.held === undefined && e.held === undefined) return "–";
  if (e.saturatedAt !== undefined && a.held !== undefined && e.saturatedAt <= a.held) return "loses capacity";
  if (a.saturatedAt !== undefined && e.held !== undefined && a.saturatedAt <= e.held) return "gains capacity";
  if (a.held !== undefined && e.held !== undefined) {
    if ((e.saturatedAt === undefined && e.held < a.held) || (a.saturatedAt === undefined && a.held < e.held)) return "lower bound only";
  }
  return "not told apart";
}

const evidenceText = (c: CapacityEvidence): string =>
  [c.held !== undefined ? `held ${int(c.held)}` : "held no rate in every run", c.saturatedAt !== undefined ? `saturated at ${int(c.saturatedAt)}` : ""]
    .filter((x) => x !== "").join(", ");

const kneesOf = (atLeastOnce: Side, exactlyOnce: Side, product: string): [KneeRange | undefined, KneeRange | undefined] =>
  [kneeRange(atLeastOnce, product), kneeRange(exactlyOnce, product)];

/** The rows that lose capacity, gain it, or whose lower exactly-once knee is only a lower bound, each with what its runs showed. */
function capacitySentence(atLeastOnce: Side, exactlyOnce: Side, products: readonly string[]): string {
  const judged = products.map((p) => {
    const [a, e] = [capacityEvidence(atLeastOnce, p), capacityEvidence(exactlyOnce, p)];
    return { p, a, e, c: capacityOf(a, e) };
  });
  const told = judged.filter((j) => j.c !== "–");
  if (told.length === 0) return "";
  const named = (c: Capacity): string => {
    const rows = told.filter((j) => j.c === c);
    return rows.length === 0 ? "none" : rows.map((j) => `${j.p} (at-least-once ${evidenceText(j.a)}/s; exactly-once ${evidenceText(j.e)}/s)`).join(", ");
  };
  const bound = told.filter((j) => j.c === "lower bound only");
  return ` Capacity, from the ${told.length} rows' runs under both (a rate is held when every quiet run at it kept up): losing it under ` +
    `exactly-once (it saturated at a rate at-least-once held): ${named("loses capacity")}; gaining it: ${named("gains capacity")}.` +
    (bound.length > 0
      ? ` A lower rate held that is only a lower bound (nothing above it saturated, so no loss is measured): ${named("lower bound only")}.`
      : "");
}

/** One paragraph: how many rows the guarantee made dearer in CPU, by how much, and which lose capacity. */
function summary(atLeastOnce: Side, exactlyOnce: Side, products: readonly string[]): string {
  const compared = products.flatMap((p) => {
    const [a, e] = [rankedInterval(atLeastOnce, p), rankedInterval(exactlyOnce, p)];
    return a !== undefined && e !== undefined ? [{ p, ratio: e.median / a.median, verdict: ratioCells(atLeastOnce, exactlyOnce, p)[1] }] : [];
  });
  const capacity = capacitySentence(atLeastOnce, exactlyOnce, products);
  if (compared.length === 0) return `No row is ranked under both guarantees, so nothing here says what exactly-once costs in CPU.${capacity}`;
  const dearer = compared.filter((c) => c.verdict === "dearer");
  const ratios = compared.map((c) => c.ratio).sort((x, y) => x - y);
  const list = (cs: typeof compared): string => cs.map((c) => `${c.p} ${c.ratio.toFixed(2)}×`).join(", ");
  return `Of the ${compared.length} rows ranked under both guarantees, ${dearer.length} ${dearer.length === 1 ? "is" : "are"} told dearer in CPU under ` +
    `exactly-once${dearer.length > 0 ? ` (${list(dearer)})` : ""}; the others' intervals overlap. The ratios run from ${ratios[0]?.toFixed(2)}× to ` +
    `${ratios.at(-1)?.toFixed(2)}×, median ${median(ratios).toFixed(2)}×.${capacity}`;
}

/** The section, at-least-once first whichever set the page's body reads. */
export function exactlyOnceSection(one: BenchResults, other: BenchResults): string[] {
  const byGuarantee = new Map<Guarantee, BenchResults>([[guaranteeOf(one), one], [guaranteeOf(other), other]]);
  const [a, e] = [byGuarantee.get("at-least-once"), byGuarantee.get("exactly-once")];
  if (a === undefined || e === undefined) return [];
  const [atLeastOnce, exactlyOnce] = [sideOf(a), sideOf(e)];
  const products = rowsOffering(atLeastOnce, exactlyOnce);
  return [
    `## ${EXACTLY_ONCE_HEADING}: what it costs`,
    "",
    "The rows whose framework offers exactly-once into Kafka, measured again in the same sitting under `--guarantee exactly-once`: each with its " +
      "framework's own mechanism, every output and the consumed offsets committed together in a Kafka transaction. The audit reads outputs with " +
      "isolation.level=read_committed under both guarantees; under exactly-once a duplicate makes a run invalid, as a loss does under both. µs CPU per " +
      `inference at ${shareLabel(rankingShare(atLeastOnce.results))} (of the row's own knee) under each guarantee, median [95 % interval] over ` +
      "its rounds; exactly-once ÷ at-least-once by median, and " +
      "whether the intervals tell them apart. Beside each µs, the row's knee under that guarantee with its search's bracket (the knee and the lowest " +
      "rate above it that saturated; ≥ when none did) and the rate its rounds moved down to when one fell behind. Capacity is read from the runs " +
      "themselves " +
      "(a knee the rounds moved to may never have run): lost when exactly-once saturated (a paced run, or its bracket) at a rate at which every " +
      "quiet at-least-once run kept up, gained the other way, and a lower rate held with nothing saturating above it is a lower bound only. " +
      "Latency is end-to-end in the same rounds, p50 / p99 in ms, the median over them: under exactly-once a " +
      "record is out when its transaction commits (the last append before the commit marker). The faults columns are `--faults --guarantee " +
      "exactly-once`: a kill -9 and restart mid-window, then the broker killed and restarted (hard) and stopped and restarted (clean), each audited " +
      "read-committed.",
    "",
    table(
      ["product", "at-least-once: µs [95 % interval]", "knee/s [bracket]", "exactly-once: µs [95 % interval]", "knee/s [bracket]", "µs ratio",
        "µs told apart", "capacity", "latency p50 / p99 ms", "kill -9", "broker restarts", "commits"],
      products.map((p) => {
        const [ka, ke] = kneesOf(atLeastOnce, exactlyOnce, p);
        return [p, figureCell(atLeastOnce, p), kneeCell(ka), figureCell(exactlyOnce, p), kneeCell(ke), ...ratioCells(atLeastOnce, exactlyOnce, p),
          capacityOf(capacityEvidence(atLeastOnce, p), capacityEvidence(exactlyOnce, p)), `${latencyCell(atLeastOnce, p)} → ${latencyCell(exactlyOnce, p)}`,
          killCell(e.faults ?? [], p), restartsCell(e.brokerRestarts ?? [], p), commitsCell(e, p)];
      }),
    ),
    "",
    summary(atLeastOnce, exactlyOnce, products),
    "",
    ...notOfferedLines(e),
  ];
}
