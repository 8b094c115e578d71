/**
 * The node row's decode and encode, one record at a time: the value is decoded as UTF-8 and
 * parsed by JSON.parse, the fields the model and the output need are checked, and the output is
 * written by JSON.stringify. A text search for `"latency_ms":` (this file until issue 20) read
 * a nested object's same-named fields, skipped pretty-printed records, read event ids as latin1
 * and wrote an escaped quote back unescaped: a producer may spell valid JSON any way it likes.
 */
import { METRIC_FIELDS } from "@bench/core";

export interface DecodedRecord {
  eventId: string;
  tsMs: number;
  /** latency_ms, queue_depth, cpu_usage, error_count, as written (not yet normalised). */
  metrics: [number, number, number, number];
}

// fatal: bytes that are not UTF-8 make a malformed record (skipped), as in the Python rows,
// instead of U+FFFD replacements inside a "valid" record.
const utf8 = new TextDecoder("utf-8", { fatal: true });

function finite(record: Record<string, unknown>, name: string): number {
  const value = record[name];
  if (typeof value !== "number" || !Number.isFinite(value)) throw new Error(`${name} is not a finite number`);
  return value;
}

/** The record's id, time and metrics; throws (with why) when the value is not a complete telemetry record. */
export function decodeRecord(value: Uint8Array | null | undefined): DecodedRecord {
  const parsed: unknown = JSON.parse(utf8.decode(value ?? new Uint8Array(0)));
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error("not a JSON object");
  const record = parsed as Record<string, unknown>;
  const eventId = record.event_id;
  if (typeof eventId !== "string") throw new Error("event_id is not a string");
  const [a, b, c, d] = METRIC_FIELDS.map((name) => finite(record, name)) as [number, number, number, number];
  return { eventId, tsMs: finite(record, "ts_ms"), metrics: [a, b, c, d] };
}

/** The output record, escaped as JSON requires whatever the event id holds. */
export function encodeOutput(eventId: string, tsMs: number, risk: number): Buffer {
  return Buffer.from(JSON.stringify({ event_id: eventId, ts_ms: tsMs, risk }));
}
