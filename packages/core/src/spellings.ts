/**
 * Valid records in the other JSON spellings real producers write: the gate's second set of
 * fixtures (fixtures/spellings.jsonl, written by apps/runner/src/tools/make-fixtures.ts). Case i
 * respells generated record GENERATED_FIXTURE_COUNT + i with the same metric values, so the audit
 * re-scores it from its sequence number like any other record, and gendata starts after the last
 * one (at FIXTURE_COUNT, gate-records.ts).
 * Every product must score each case exactly before it is timed.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { normalise, type FeatureVector } from "./features.ts";
import { FIXTURE_SEED, FIXTURE_TS_MS, GENERATED_FIXTURE_COUNT } from "./fixtures.ts";
import { makeRecord } from "./generator.ts";
import { mulberry32 } from "./random.ts";
import type { InputRecord } from "./schema.ts";

/**
 * librdkafka's default message.max.bytes: the smallest size limit on the input path. The
 * broker's message.max.bytes and a topic's max.message.bytes default to 1,048,588, and every
 * product's consumer fetches more than either (KAFKA_SETTINGS' max.partition.fetch.bytes is
 * 50 MB; Flink's Java consumer keeps 1 MiB and always returns a first batch that is larger).
 */
export const SMALLEST_MESSAGE_LIMIT = 1_000_000;
/** The near-size-limit case's value, in bytes: room left for the key and librdkafka's per-message overhead. */
export const NEAR_LIMIT_VALUE_BYTES = SMALLEST_MESSAGE_LIMIT - 1_000;

export interface Spelled {
  /** The exact text produced (sent as UTF-8). */
  value: string;
  /** The message key; null produces none. */
  key: string | null;
  /** The event_id a JSON parser reads from value. */
  eventId: string;
}

export interface SpellingCase {
  name: string;
  /** What the spelling is, for the file's reader. */
  about: string;
  spell(record: InputRecord): Spelled;
}

/** A name and the raw JSON text of its value. */
type Entry = readonly [string, string];

const entriesOf = (o: object): Entry[] => Object.entries(o).map(([k, v]) => [k, JSON.stringify(v)] as const);
const objectText = (entries: readonly Entry[], colon = ":", comma = ","): string =>
  `{${entries.map(([k, text]) => `${JSON.stringify(k)}${colon}${text}`).join(comma)}}`;
/** The record's entries in order, some values respelled. */
const respelled = (record: InputRecord, texts: Partial<Record<keyof InputRecord, string>>): Entry[] =>
  entriesOf(record).map(([k, text]) => [k, texts[k as keyof InputRecord] ?? text] as const);
const keyed = (record: InputRecord, value: string, eventId = record.event_id): Spelled => ({ value, key: record.partition_key, eventId });

/** Every UTF-16 unit of s as a \uXXXX escape (a character beyond the BMP as its surrogate pair), hex case mixed. */
function uEscaped(s: string): string {
  const units = Array.from({ length: s.length }, (_, i) => s.charCodeAt(i).toString(16).padStart(4, "0"));
  return `"${units.map((hex, i) => `\\u${i % 2 === 0 ? hex : hex.toUpperCase()}`).join("")}"`;
}

/** 55.3 as "553e-1": the decimal digits as an integer mantissa; the same number to a correct parser. */
function integerMantissa(x: number): string {
  const [whole = "", fraction = ""] = String(x).split(".");
  const mantissa = `${whole}${fraction}`.replace(/^0+(?=\d)/, "");
  return `${mantissa}e-${fraction.length}`;
}

/** A decimal with a trailing zero (785.32 as 785.320, 24 as 24.0): the same number. */
const trailingZero = (x: number): string => (String(x).includes(".") ? `${x}0` : `${x}.0`);

/** Base64url characters from a seeded generator: what lz4 cannot shrink much, so the bytes on the wire stay near the limit too. */
function padding(length: number, seed: number): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  const rng = mulberry32(seed);
  let text = "";
  for (let i = 0; i < length; i++) text += alphabet[Math.floor(rng() * 64)];
  return text;
}

function nearSizeLimit(record: InputRecord): Spelled {
  const withPadding = (pad: string): string => {
    const entries = entriesOf(record);
    entries.splice(2, 0, ["padding", JSON.stringify(pad)]);
    return objectText(entries);
  };
  const room = NEAR_LIMIT_VALUE_BYTES - Buffer.byteLength(withPadding(""));
  return keyed(record, withPadding(padding(room, 0x5a1e)));
}

function withEventId(record: InputRecord, label: string): InputRecord {
  return { ...record, event_id: `${record.event_id}/${label}` };
}

export const SPELLING_CASES: readonly SpellingCase[] = [
  {
    name: "pretty-printed",
    about: "indented over many lines, a space after every colon (JSON.stringify(record, null, 2))",
    spell: (r) => keyed(r, JSON.stringify(r, null, 2)),
  },
  {
    name: "keys-reordered",
    about: "the 19 fields in reverse order: the metrics first, event_id last",
    spell: (r) => keyed(r, JSON.stringify(Object.fromEntries(Object.entries(r).reverse()))),
  },
  {
    name: "nested-decoys-first",
    about: "an object and an array holding event_id, ts_ms and the four metrics with other values come before the real fields",
    spell: (r) => {
      const decoy = { event_id: `${r.event_id}/decoy`, ts_ms: 0, latency_ms: 4999.99, queue_depth: 999, cpu_usage: 99.9, error_count: 49 };
      return keyed(r, objectText([["meta", JSON.stringify(decoy)], ["history", JSON.stringify([decoy])], ...entriesOf(r)]));
    },
  },
  {
    name: "unknown-fields",
    about: "extra fields of every JSON type before and after the record's own (a nested same-named string, null, true, a big integer, empty containers)",
    spell: (r) =>
      keyed(
        r,
        objectText([
          ["schema_version", "3"],
          ["labels", '{"team":"core","latency_ms":"n/a","error_count":null}'],
          ["tags", '["a","b",1,true,null]'],
          ...entriesOf(r),
          ["sampled", "true"],
          ["parent_id", "null"],
          ["weight", "-1.5e-3"],
          ["big_id", "9007199254740993"],
          ["empty_object", "{}"],
          ["empty_array", "[]"],
        ]),
      ),
  },
  {
    name: "integer-float-forms",
    about: "integers written as floats (24.0) and decimals with a trailing zero (785.320)",
    spell: (r) =>
      keyed(
        r,
        objectText(
          respelled(r, {
            latency_ms: trailingZero(r.latency_ms),
            queue_depth: `${r.queue_depth}.0`,
            cpu_usage: trailingZero(r.cpu_usage),
            error_count: `${r.error_count}.0`,
          }),
        ),
      ),
  },
  {
    name: "exponent-numbers",
    about: "the four metrics in exponent forms (like 3.369e+1, 6.31E2, 553e-1, 590E-1)",
    spell: (r) =>
      keyed(
        r,
        objectText(
          respelled(r, {
            latency_ms: r.latency_ms.toExponential(),
            queue_depth: r.queue_depth.toExponential().toUpperCase().replace("+", ""),
            cpu_usage: integerMantissa(r.cpu_usage),
            error_count: `${r.error_count * 10}E-1`,
          }),
        ),
      ),
  },
  {
    name: "whitespace-crlf-tabs",
    about: "CRLF, tabs and spaces around every token, before the object and after it",
    spell: (r) => keyed(r, `\r\n \t${objectText(entriesOf(r), "\t:\r\n ", " ,\r\n\t")} \r\n`),
  },
  {
    name: "non-ascii-event-id",
    about: "an event_id with 2-, 3- and 4-byte UTF-8 characters, written as they are",
    spell: (r) => {
      const record = withEventId(r, "ü-日本-🚀");
      return keyed(record, JSON.stringify(record), record.event_id);
    },
  },
  {
    name: "escaped-quote-in-event-id",
    about: 'an event_id holding a quote, a backslash, a tab and a newline, written as \\" \\\\ \\t \\n',
    spell: (r) => {
      const record = withEventId(r, 'say "hi" \\ tab\tnew\nline');
      return keyed(record, JSON.stringify(record), record.event_id);
    },
  },
  {
    name: "unicode-escapes",
    about: "every character of event_id and service as a \\u escape (a surrogate pair for the emoji), slashes in endpoint as \\/",
    spell: (r) => {
      const eventId = `${r.event_id}/é🚀`;
      const texts = { event_id: uEscaped(eventId), service: uEscaped(r.service), endpoint: `"${r.endpoint.replaceAll("/", "\\/")}"` };
      return keyed(r, objectText(respelled(r, texts)), eventId);
    },
  },
  {
    name: "no-message-key",
    about: "produced without a message key (the record's partition_key is still in the value)",
    spell: (r) => ({ value: JSON.stringify(r), key: null, eventId: r.event_id }),
  },
  {
    name: "near-size-limit",
    about: `a "padding" field after ts_ms makes the value ${NEAR_LIMIT_VALUE_BYTES} bytes, just under librdkafka's message.max.bytes (${SMALLEST_MESSAGE_LIMIT})`,
    spell: nearSizeLimit,
  },
];

export const SPELLING_COUNT = SPELLING_CASES.length;

/** One line of fixtures/spellings.jsonl. */
export interface SpellingRow {
  name: string;
  about: string;
  key: string | null;
  event_id: string;
  ts_ms: number;
  features: FeatureVector;
  risk: number;
  value: string;
}

/** The rows as the generator makes them, without the reference model's risk (make-fixtures adds it). */
export function spellingRows(): Array<Omit<SpellingRow, "risk">> {
  return SPELLING_CASES.map((c, i) => {
    const seq = GENERATED_FIXTURE_COUNT + i;
    const record = makeRecord(FIXTURE_SEED, seq, FIXTURE_TS_MS + seq);
    const { value, key, eventId } = c.spell(record);
    return { name: c.name, about: c.about, key, event_id: eventId, ts_ms: record.ts_ms, features: normalise(record), value };
  });
}

export function loadSpellings(fixturesDir: string): SpellingRow[] {
  return readFileSync(join(fixturesDir, "spellings.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as SpellingRow);
}
