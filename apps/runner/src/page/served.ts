/**
 * "Embedded or served": what calling a model server costs each row, from two results sets of one
 * sitting (render groups them by serving): the rows with the model in their own process, and again
 * under `--serving served`. Per row that ran both: µs CPU per inference at the load share of its
 * knee under each, median [95 % interval] over its rounds (served: the row and the bench's server
 * together), the server's own µs per record, the knee with its bracket under each, and end-to-end
 * latency. Then what Crayfish found set against what ran here, the rows that cannot call a server
 * with their adapter's reason, and the server itself.
 */
import { NOT_SERVED } from "@bench/core";
import { servingOf } from "../results/files.ts";
import type { BenchResults, RunResult } from "../results/types.ts";
import { medianInterval, type Interval } from "../rounds/intervals.ts";
import { rankingShare, shareLabel } from "../rounds/load-share.ts";
import { intervalCell } from "./rounds.ts";
import { crayfishLines } from "./crayfish.ts";
import { figureCell, kneeCell, kneeRange, latencyCell, rankedInterval, sideOf, type Side } from "./exactly-once.ts";
import { table } from "./format.ts";
import { serverAloneLines } from "./server-alone.ts";

/** The section's heading starts so. */
export const SERVED_HEADING = "Embedded or served";

const windowTicks = (run: RunResult): RunResult["ticks"] => run.ticks.filter((t) => t.phase === "window");

/** The server's CPU over the row's and its own together, summed over `ticks`; undefined when no tick holds a server sample. */
function shareOfTicks(ticks: RunResult["ticks"]): number | undefined {
  const sampled = ticks.filter((t) => t.server !== undefined);
  const total = sampled.reduce((sum, t) => sum + t.cpuPercent, 0);
  if (sampled.length === 0 || total <= 0) return undefined;
  return sampled.reduce((sum, t) => sum + (t.server?.cpuPercent ?? 0), 0) / total;
}

/**
 * The server's share of a served row's CPU over its counting rounds' windows: the server's CPU
 * summed over every window tick of those rounds, over the row's and server's together summed the
 * same way, so a round is weighed by its ticks. Undefined when no tick holds a server sample.
 */
export function serverShare(side: Side, product: string): number | undefined {
  return shareOfTicks((side.rows.get(product)?.rounds ?? []).filter((r) => r.counts).flatMap((r) => windowTicks(r.run)));
}

/**
 * The server's own µs CPU per record in a served row's counting rounds: each round's µs (the row
 * and the server together) times that round's server share, median [95 % interval] over the
 * rounds. It is the server's cost at the row's own call shape, measured beside the row.
 */
export function serverMicros(side: Side, product: string): Interval | undefined {
  const row = side.rows.get(product);
  const perRound = (row?.rounds ?? []).flatMap((r) => {
    const [micros, share] = [row?.byRound.get(r.round), r.counts ? shareOfTicks(windowTicks(r.run)) : undefined];
    return micros !== undefined && share !== undefined && share > 0 ? [micros * share] : [];
  });
  return medianInterval(perRound);
}

function serverMicrosCell(side: Side, product: string): string {
  const micros = serverMicros(side, product);
  return micros === undefined ? "–" : intervalCell(micros);
}

const shareCell = (share: number | undefined): string => (share === undefined ? "–" : `${(share * 100).toFixed(0)} %`);

/** Served over embedded by median, and whether the intervals tell them apart. */
function ratioCells(embedded: Side, served: Side, product: string): [string, string] {
  const [e, s] = [rankedInterval(embedded, product), rankedInterval(served, product)];
  if (e === undefined || s === undefined) return ["–", "–"];
  const verdict = s.low > e.high ? "dearer" : s.high < e.low ? "cheaper" : "not told apart";
  return [`${(s.median / e.median).toFixed(2)}×`, verdict];
}

/** The rows the served bench ran, in the embedded ranking's order, then any it ranked alone. */
function rowsServed(embedded: Side, served: Side): string[] {
  const ran = new Set(served.results.runs.filter((r) => r.status !== "skipped").map((r) => r.product));
  return [...new Set([...embedded.rows.keys(), ...served.rows.keys(), ...ran])].filter((p) => ran.has(p));
}

function notServedLines(served: BenchResults): string[] {
  const skipped = served.runs.filter((r) => r.status === "skipped" && r.reason?.startsWith(NOT_SERVED));
  const products = [...new Map(skipped.map((r) => [r.product, r.reason as string])).entries()];
  if (products.length === 0) return [];
  return ["Rows that cannot call a model server, as their adapters say:", "", ...products.map(([p, why]) => `- **${p}**: ${why.slice(NOT_SERVED.length)}`), ""];
}

/** The server the served rows called: what it is, and whether its CPU is in the figures. */
export function serverLines(served: BenchResults): string[] {
  const record = served.serving;
  if (!record) return [];
  if (record.server === "user") {
    return [`The rows called a model server given with \`--model-server\` (${record.address}). Its CPU is not counted: ${record.why}.`, ""];
  }
  const f = record.facts;
  return [
    `The model server: ${f.server} ${f.version}, started by the bench and hosting the same frozen model; backend ${f.backend}; threads: ${f.threads}; ` +
      `batching: ${f.batching}; ${f.protocol}. Its process tree is sampled beside each row's, and its CPU counts as the row's.`,
    "",
  ];
}

/** One paragraph: how many rows the server call made dearer in CPU, and by how much. */
function summary(embedded: Side, served: Side, products: readonly string[]): string {
  const compared = products.flatMap((p) => {
    const [e, s] = [rankedInterval(embedded, p), rankedInterval(served, p)];
    return e !== undefined && s !== undefined ? [{ p, ratio: s.median / e.median, verdict: ratioCells(embedded, served, p)[1] }] : [];
  });
  if (compared.length === 0) return "No row is ranked both embedded and served, so nothing here says what the server call costs in CPU.";
  const dearer = compared.filter((c) => c.verdict === "dearer");
  const list = dearer.map((c) => `${c.p} ${c.ratio.toFixed(2)}×`).join(", ");
  return `Of the ${compared.length} rows ranked both ways, ${dearer.length} ${dearer.length === 1 ? "is" : "are"} told dearer in CPU served` +
    `${dearer.length > 0 ? ` (${list})` : ""}; the others' intervals overlap or part the other way.`;
}

/** The section, embedded first whichever set the page's body reads; nothing unless exactly one set is served. */
export function servedSection(one: BenchResults, other: BenchResults): string[] {
  const byServing = new Map([[servingOf(one), one], [servingOf(other), other]]);
  const [e, s] = [byServing.get("embedded"), byServing.get("served")];
  if (e === undefined || s === undefined) return [];
  const [embedded, served] = [sideOf(e), sideOf(s)];
  const products = rowsServed(embedded, served);
  const counted = s.serving?.cpuCounted === true;
  return [
    `## ${SERVED_HEADING}: what the call costs`,
    "",
    "The same rows of one sitting with the model in their own process (embedded) and again under `--serving served`, each calling a model server " +
      `with the batches it scores embedded, over the Open Inference Protocol. µs CPU per inference at ${shareLabel(rankingShare(s))} (of the row's ` +
      "own knee under each), median [95 % interval] over its rounds; served, " +
      `${counted ? "the row's process tree and the server's together" : "the row's own process tree only"}. The server's µs is its own CPU per ` +
      "record in the same rounds (each round's µs times the server's share of it), at the row's own call shape; its share is its CPU over the " +
      "row's and its own together, summed over the served rounds' windows. Served ÷ embedded by median, and whether the intervals tell them " +
      "apart. The knee under each with its search's bracket (≥ when nothing above it saturated); latency is end-to-end in the same rounds, " +
      "p50 / p99 in ms, the median over the rounds.",
    "",
    table(
      ["product", "embedded: µs [95 % interval]", "knee/s [bracket]", "served: µs [95 % interval]", "server's µs [95 % interval]",
        "server's share", "knee/s [bracket]", "µs ratio", "µs told apart", "latency p50 / p99 ms"],
      products.map((p) => [p, figureCell(embedded, p), kneeCell(kneeRange(embedded, p)), figureCell(served, p), serverMicrosCell(served, p),
        shareCell(serverShare(served, p)),
        kneeCell(kneeRange(served, p)), ...ratioCells(embedded, served, p), `${latencyCell(embedded, p)} → ${latencyCell(served, p)}`]),
    ),
    "",
    summary(embedded, served, products),
    "",
    ...crayfishLines(embedded, served, products),
    ...notServedLines(s),
    ...serverLines(s),
    ...serverAloneLines(s),
  ];
}

/** A served results set shown alone: the server it called and each ranked row's share of its µs. */
export function servedAloneLines(served: BenchResults): string[] {
  if (!served.serving) return [];
  const side = sideOf(served);
  const shares = [...side.rows.keys()].flatMap((p) => {
    const share = serverShare(side, p);
    return share === undefined ? [] : [`${p} ${shareCell(share)}`];
  });
  const shareLine = shares.length > 0 ? [`The server's share of each row's µs, over its rounds' windows: ${shares.join(", ")}.`, ""] : [];
  return [`## ${SERVED_HEADING}: served`, "", ...serverLines(served), ...serverAloneLines(served), ...shareLine, ...notServedLines(served)];
}
