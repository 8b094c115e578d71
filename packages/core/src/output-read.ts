/**
 * How the harness reads one of a product's output records, in one place for the gate (the
 * bench's and the integration tests'), the audit and the faults tally. A product may write
 * anything: an output that is not UTF-8 JSON or names no event_id is a finding to count and
 * show, never an exception that ends the run.
 */

export type OutputRead = { ok: true; eventId: string; tsMs: unknown; risk: unknown; record: Record<string, unknown> } | { ok: false; why: string };

/** An output the harness could not use: where it is, why, and how it begins. */
export interface BadOutput {
  offset: number;
  why: string;
  /** The first HEAD_BYTES bytes as text, JSON-quoted so that one line shows them. */
  head: string;
}

export const HEAD_BYTES = 120;

const utf8 = new TextDecoder("utf-8", { fatal: true });

export function readOutput(value: Uint8Array): OutputRead {
  let text: string;
  try {
    text = utf8.decode(value);
  } catch {
    return { ok: false, why: "not UTF-8" };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, why: "not JSON" };
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return { ok: false, why: "not a JSON object" };
  const record = parsed as Record<string, unknown>;
  const { event_id: eventId, ts_ms: tsMs, risk } = record;
  if (typeof eventId !== "string") return { ok: false, why: "no event_id" };
  return { ok: true, eventId, tsMs, risk, record };
}

/** How an output begins, as one quoted line (a cut multi-byte character shows as U+FFFD). */
export function outputHead(value: Uint8Array): string {
  return JSON.stringify(Buffer.from(value.subarray(0, HEAD_BYTES)).toString("utf8") + (value.length > HEAD_BYTES ? "…" : ""));
}
