/**
 * The input record every product reads, and the output record every product writes.
 *
 * Nineteen fields, so that a product which decodes the whole record pays what a real
 * telemetry record costs; four of them feed the model. The maxima are part of the
 * model contract (models/risk_mlp.card.json repeats them) and are what every product
 * divides by.
 */

export const METRIC_FIELDS = ["latency_ms", "queue_depth", "cpu_usage", "error_count"] as const;
export type MetricField = (typeof METRIC_FIELDS)[number];

/** Documented maxima: feature = clip(value / max, 0, 1). */
export const METRIC_MAXIMA: Readonly<Record<MetricField, number>> = {
  latency_ms: 5000,
  queue_depth: 1000,
  cpu_usage: 100,
  error_count: 50,
};

export interface InputRecord {
  /** "e<seq>": unique within a run; the generator can rebuild the record from it. */
  event_id: string;
  /** Producer wall clock (ms since epoch) when gendata built the record. */
  ts_ms: number;
  partition_key: string;
  service: string;
  host: string;
  region: string;
  zone: string;
  status: "ok" | "degraded" | "error";
  method: string;
  endpoint: string;
  http_status: number;
  latency_ms: number;
  queue_depth: number;
  cpu_usage: number;
  error_count: number;
  bytes_in: number;
  bytes_out: number;
  trace_id: string;
  app_version: string;
}

export const INPUT_FIELD_COUNT = 19;

/**
 * What every product publishes per input record. Products may add fields (the page says
 * which do); these three are required: the id proves which record was scored, ts_ms
 * carries the produce time for end-to-end latency.
 */
export interface OutputRecord {
  event_id: string;
  ts_ms: number;
  risk: number;
}

export function eventIdFor(seq: number): string {
  return `e${seq}`;
}

/**
 * Inverse of eventIdFor; undefined for an id no generator made. An id may carry a label after a
 * slash ("e259/ü-日本"): the gate's spelling fixtures (fixtures/spellings.jsonl) put non-ASCII
 * and escaped characters there, so the audit's per-sequence accounting still covers them.
 */
export function seqOfEventId(eventId: string): number | undefined {
  const digits = /^e(\d+)(?:\/[\s\S]*)?$/.exec(eventId)?.[1];
  if (digits === undefined) return undefined;
  const seq = Number(digits);
  return Number.isSafeInteger(seq) ? seq : undefined;
}
