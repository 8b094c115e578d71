/**
 * Crayfish beside this bench: what the one published benchmark of model serving inside stream
 * processors found, set against each row's knee embedded and served here and against whether
 * serving reorders the rows this bench tells apart.
 */
import { standings } from "../rounds/standing.ts";
import { kneeRange, type KneeRange, type Side } from "./exactly-once.ts";
import { int } from "./format.ts";

/**
 * What Crayfish reported for the same question, for its small feed-forward network on one replica
 * on GCP, as its analysis notebook prints it (soniahorchidan/crayfish23, commit ea306bc,
 * results-analysis/aggregates-final-gcp.ipynb: "Sustainable throughput achieved [FFNN, N-N-N setup]").
 */
export const CRAYFISH_FINDING =
  "Crayfish (Horchidan et al., EDBT 2024) asked the same question of Flink, Kafka Streams, Spark Structured Streaming and Ray. For its small " +
  "feed-forward network on one replica, its analysis gives Flink about 1,373 records/s with ONNX embedded, 617 through TF Serving and 225 " +
  "through TorchServe, and Kafka Streams 2,054 embedded and 702 through TF Serving: served 2.2–6.1× below embedded, and Kafka Streams above " +
  "Flink both ways. It reports throughput and mean latency at fixed input rates from two repetitions, with no CPU per record, and its servers " +
  "were not this one (KServe's, on ONNX Runtime), so what carries is the direction and the order, not the figures.";

/** "flink 64,800 → 20,100 (3.22×)": a row's knee embedded and served, ≥ where nothing above it saturated. */
function kneeChange(embedded: Side, served: Side, product: string): string | undefined {
  const [e, s] = [kneeRange(embedded, product), kneeRange(served, product)];
  if (e === undefined || s === undefined) return undefined;
  const bound = (k: KneeRange): string => `${k.saturated === undefined && k.bracketed ? "≥ " : ""}${int(k.keptUp)}`;
  return `${product} ${bound(e)} → ${bound(s)} (${(e.keptUp / s.keptUp).toFixed(2)}×)`;
}

/** Pairs of rows told apart both ways: how many keep their order served, and which part the other way. */
function orderChange(embedded: Side, served: Side, products: readonly string[]): string {
  const apart = (side: Side): Map<string, string> => new Map(standings(side.results).pairs
    .filter((p) => p.verdict === "DIFFERENT" && products.includes(p.a) && products.includes(p.b))
    .map((p) => [[p.a, p.b].sort().join(" / "), p.a]));
  const [e, s] = [apart(embedded), apart(served)];
  const both = [...e.keys()].filter((k) => s.has(k));
  const flipped = both.filter((k) => e.get(k) !== s.get(k));
  if (both.length === 0) {
    return "No pair of these rows is told apart in µs both embedded and served, so nothing here says whether serving reorders them.";
  }
  const which = flipped.map((k) => `${k} (embedded ${e.get(k)} cheaper, served ${s.get(k)})`).join("; ");
  const [pairs, kept] = [both.length === 1 ? "the 1 pair" : `the ${both.length} pairs`, both.length - flipped.length];
  return `Of ${pairs} of rows told apart in µs both ways, ${kept} ${kept === 1 ? "keeps its" : "keep their"} order served` +
    (flipped.length > 0 ? ` and ${flipped.length} part the other way: ${which}.` : ".");
}

/** The rows by the highest rate each kept up, highest first: "kafka-streams > flink". */
function kneeOrder(side: Side, products: readonly string[]): string {
  const knees = products.flatMap((p) => {
    const k = kneeRange(side, p);
    return k === undefined ? [] : [{ p, rate: k.keptUp }];
  });
  return knees.sort((a, b) => b.rate - a.rate).map((k) => k.p).join(" > ");
}

/** Crayfish's finding, then what ran here: each row's knee embedded and served, their order, and whether serving reorders the rows' µs. */
export function crayfishLines(embedded: Side, served: Side, products: readonly string[]): string[] {
  const both = products.filter((p) => kneeRange(embedded, p) !== undefined && kneeRange(served, p) !== undefined);
  if (both.length === 0) return [`${CRAYFISH_FINDING} Here no row has a knee both ways. ${orderChange(embedded, served, products)}`, ""];
  const knees = both.map((p) => kneeChange(embedded, served, p) as string);
  const [e, s] = [kneeOrder(embedded, both), kneeOrder(served, both)];
  const order = both.length < 2 ? "" : ` By knee, embedded ${e}; served ${s}${e === s ? " (the same order)" : ""}.`;
  return [`${CRAYFISH_FINDING} Here each row's knee, embedded → served: ${knees.join(", ")}.${order} ${orderChange(embedded, served, products)}`, ""];
}
