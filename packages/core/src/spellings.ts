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
import { METRIC_FIELDS, type InputRecord, type MetricField } from "./schema.ts";

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

/** The cases written for this bench; JSONTestSuite's follow them (SUITE_CASES). */
const BENCH_CASES: readonly SpellingCase[] = [
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
    about: `a "padding" field after ts_ms makes the value ${NEAR_LIMIT_VALUE_BYTES} bytes, just under librdkafka's message.max.bytes (` +
      `${SMALLEST_MESSAGE_LIMIT})`,
    spell: nearSizeLimit,
  },
];


/**
 * JSONTestSuite (github.com/nst/JSONTestSuite, test_parsing/) lists the texts every JSON parser
 * must accept (its `y_` files). The cases below carry each object, string and number construct
 * of that set which a telemetry record can hold, as a record: a case is named after the file it
 * comes from, so a row that refuses one names a public, citable construct.
 *
 * - Strings: the construct goes into event_id's label (after the slash), the one string every
 *   product must write back unchanged, so a product that mis-decodes it is caught by the gate.
 * - Numbers: the construct rewrites the four metrics to the same numbers (exactly the same
 *   decimal value, so the same double); forms no metric can take (negative, 1e+28, 123e65) go
 *   into an extra field the product must parse past.
 * - Objects: escaped and empty keys, repeated keys (the last one carries the real value: ECMAScript's
 *   JSON.parse, Python's json, Jackson's default; RFC 8259 §4 leaves repeated names unpredictable,
 *   so a row that refuses them is a finding of its parser, declared with the row, not a bug).
 *
 * Not carried, and why: the y_array_* and y_structure_* files (a record is one object, never a
 * top-level array or scalar), y_string_space and the lonely scalars (top-level values), and files
 * whose construct an earlier case already carries (y_string_pi, y_string_two-byte-utf-8 and the
 * other raw UTF-8 ones: non-ascii-event-id; y_string_uEscape, y_string_accepted_surrogate_pair,
 * y_string_1_2_3_bytes_UTF-8_sequences: unicode-escapes; y_string_backslash_doublequotes:
 * escaped-quote-in-event-id; y_object_with_newlines, y_number_after_space: whitespace-crlf-tabs;
 * y_object_empty, y_object_simple, y_number_negative_int/one, y_number_simple_*: unknown-fields;
 * y_object_long_strings: nested-decoys-first and near-size-limit; y_number_minus_zero is
 * y_number_negative_zero's text; y_string_with_del_character is y_string_unescaped_char_delete's
 * construct; y_number_int_with_exp is y_number_real_exponent's). The i_ (implementation-defined)
 * and n_ (must-reject) files are not must-accept: out of this set.
 */
export const JSON_TEST_SUITE = "https://github.com/nst/JSONTestSuite/tree/master/test_parsing";

/**
 * x times 10^-exp written as a decimal, by moving the point in x's shortest digits (no float
 * arithmetic): scaled(39.37, 1) is "3.937", scaled(39.37, -2) "3937", scaled(1, 2) "0.01". Text
 * `${scaled(x, e)}e${e}` is then exactly x's decimal value, which every correct parser reads as x.
 */
export function scaled(x: number, exp: number): string {
  const [whole = "", fraction = ""] = String(x).split(".");
  const digits = `${whole}${fraction}`;
  const point = whole.length - exp; // where the decimal point goes in digits
  const padded = point <= 0 ? "0".repeat(1 - point) + digits : point > digits.length ? digits + "0".repeat(point - digits.length) : digits;
  const at = Math.max(point, 1);
  const [int, frac] = [padded.slice(0, at).replace(/^0+(?=\d)/, ""), padded.slice(at).replace(/0+$/, "")];
  return frac === "" ? int : `${int}.${frac}`;
}

/** An integer as an integer mantissa and an unsigned exponent (33 as 33e0, 50 as 5e1); a decimal or 0 with e0. */
function integerMantissa0(x: number): string {
  if (!Number.isInteger(x) || x === 0) return `${x}e0`;
  const mantissa = String(x).replace(/0+$/, "");
  return `${mantissa}e${String(x).length - mantissa.length}`;
}

/** The four metrics, each written by form. */
const metricsAs = (r: InputRecord, form: (x: number) => string): Partial<Record<keyof InputRecord, string>> =>
  Object.fromEntries(METRIC_FIELDS.map((f) => [f, form(r[f])]));

/** The metrics that are 0 written as zeroText; a record without one cannot carry the case (the case list's order places it). */
function zeroMetricsAs(r: InputRecord, zeroText: string): Partial<Record<keyof InputRecord, string>> {
  const zeros = METRIC_FIELDS.filter((f) => r[f] === 0);
  if (zeros.length === 0) throw new Error(`record ${r.event_id} has no zero metric for ${zeroText}: reorder the spelling cases`);
  return Object.fromEntries(zeros.map((f) => [f, zeroText]));
}

/** A suite case: named after its file, `construct` the suite's text as it appears in the value. */
interface SuiteCase extends SpellingCase {
  construct: string;
}

/** A string construct (the JSON text between the quotes, as the suite file writes it) as event_id's label. */
function stringCase(file: string, construct: string, about: string): SuiteCase {
  return {
    name: file,
    about: `${about}, in event_id after the slash`,
    construct,
    spell: (r) => {
      const eventIdText = `"${r.event_id}/${construct}"`;
      return keyed(r, objectText(respelled(r, { event_id: eventIdText })), JSON.parse(eventIdText) as string);
    },
  };
}

/** A number construct: the four metrics (same numbers) written by form. */
function numberCase(file: string, construct: string, about: string, form: (x: number) => string): SuiteCase {
  return { name: file, about, construct, spell: (r) => keyed(r, objectText(respelled(r, metricsAs(r, form)))) };
}

/** A zero written as the suite writes it, in every metric of the record that is 0. */
function zeroCase(file: string, construct: string): SuiteCase {
  return {
    name: file,
    about: `every metric that is 0 written as ${construct}`,
    construct,
    spell: (r) => keyed(r, objectText(respelled(r, zeroMetricsAs(r, construct)))),
  };
}

/** Extra fields (raw JSON text, keys included) before the record's own: constructs no record field can take. */
function extraFieldsCase(file: string, fields: string, about: string): SuiteCase {
  return { name: file, about, construct: fields, spell: (r) => keyed(r, `{${fields},${objectText(entriesOf(r)).slice(1)}`) };
}

/** Every metric named twice: first with value `first(x)`, the real one last. */
function duplicatedKeysCase(file: string, about: string, first: (r: InputRecord, field: MetricField) => string): SuiteCase {
  return {
    name: file,
    about,
    construct: `"${METRIC_FIELDS[0]}":`, // written twice: the test counts it
    spell: (r) => keyed(r, objectText([...METRIC_FIELDS.map((f) => [f, first(r, f)] as const), ...entriesOf(r)])),
  };
}

/** The decoy values a first-wins parser would score (far from any generated record's). */
const DECOYS: Readonly<Record<MetricField, string>> = { latency_ms: "4999.99", queue_depth: "999", cpu_usage: "99.9", error_count: "49" };

/** Metric and event_id keys written as \u escapes, hex case mixed (y_string_uEscape's construct, in keys). */
function escapedKeys(r: InputRecord): Spelled {
  const escapedKey = (k: string): string => (k === "event_id" || (METRIC_FIELDS as readonly string[]).includes(k) ? uEscaped(k) : JSON.stringify(k));
  return keyed(r, `{${entriesOf(r).map(([k, text]) => `${escapedKey(k)}:${text}`).join(",")}}`);
}

/**
 * JSONTestSuite's must-accept constructs as records, in this order: the zero forms sit where
 * the generated record has a zero metric (e268 queue_depth, e270 error_count, e283 both).
 */
export const SUITE_CASES: readonly SuiteCase[] = [
  zeroCase("y_number_0e1", "0e1"),
  numberCase(
    "y_number_real_capital_e_pos_exp",
    "E+1",
    "the four metrics as a mantissa, capital E and a signed exponent (3.937E+1)",
    (x) => `${scaled(x, 1)}E+1`,
  ),
  zeroCase("y_number_0e+1", "0e+1"),
  numberCase(
    "y_number_real_capital_e_neg_exp",
    "E-2",
    "the four metrics as an integer mantissa, capital E and a negative exponent (3937E-2)",
    (x) => `${scaled(x, -2)}E-2`,
  ),
  numberCase("y_number_real_capital_e", "E1", "the four metrics with a capital E and an unsigned exponent (3.937E1)", (x) => `${scaled(x, 1)}E1`),
  numberCase("y_number_real_pos_exponent", "e+2", "the four metrics with e+ (0.3937e+2)", (x) => `${scaled(x, 2)}e+2`),
  numberCase("y_number_real_neg_exp", "e-3", "the four metrics as an integer mantissa and e- (39370e-3)", (x) => `${scaled(x, -3)}e-3`),
  numberCase("y_number_real_fraction_exponent", "e2", "the four metrics with a fraction and an unsigned exponent (0.3937e2)", (x) => `${scaled(x, 2)}e2`),
  numberCase(
    "y_number_real_exponent",
    "e0",
    "the four metrics as an integer mantissa and an unsigned exponent where one fits (33e0, 5e1), else with e0 (39.37e0)",
    integerMantissa0,
  ),
  extraFieldsCase("y_number", '"magnitude":123e65', "an extra field 123e65 (a double near 1.2e67) before the record's own"),
  extraFieldsCase(
    "y_number_double_close_to_zero",
    `"drift":-0.${"0".repeat(77)}1`,
    "an extra field -0.000…0001 (78 decimals: a double underflowing towards -0) before the record's own",
  ),
  extraFieldsCase("y_object_extreme_numbers", '"min": -1.0e+28, "max": 1.0e+28', "extra fields -1.0e+28 and 1.0e+28 before the record's own"),
  duplicatedKeysCase(
    "y_object_duplicated_key",
    "each metric first with a decoy value (4999.99, 999, 99.9, 49), then again with its real one: the last one counts (ECMAScript JSON.parse, Python json, " +
      "Jackson's default; RFC 8259 §4 leaves it to the parser)",
    (_r, f) => DECOYS[f],
  ),
  duplicatedKeysCase(
    "y_object_duplicated_key_and_value",
    "each metric twice with the same value, before the other fields and among them",
    (r, f) => JSON.stringify(r[f]),
  ),
  extraFieldsCase("y_object_empty_key", '"":0', 'an extra field with the empty name "" before the record\'s own'),
  zeroCase("y_number_negative_zero", "-0"),
  extraFieldsCase(
    "y_object_escaped_null_in_key",
    '"foo\\u0000bar": 42',
    "an extra field whose name holds an escaped NUL (foo\\u0000bar) before the record's own",
  ),
  {
    name: "y_string_uEscape-in-keys",
    about: "the keys event_id and the four metrics written as \\u escapes, hex case mixed (\\u006c\\u0061…)",
    construct: "\\u006c\\u0061",
    spell: escapedKeys,
  },
  stringCase("y_string_allowed_escapes", '\\"\\\\\\/\\b\\f\\n\\r\\t', "every two-character escape: \\\" \\\\ \\/ \\b \\f \\n \\r \\t"),
  stringCase("y_string_backslash_and_u_escaped_zero", "\\\\u0000", "an escaped backslash then u0000 (six characters, no NUL)"),
  stringCase("y_string_comments", "a/*b*/c/*d//e", "comment markers inside a string"),
  stringCase("y_string_double_escape_a", "\\\\a", "an escaped backslash then a"),
  stringCase("y_string_double_escape_n", "\\\\n", "an escaped backslash then n"),
  stringCase("y_string_escaped_control_character", "\\u0012", "a control character U+0012 as \\u0012"),
  stringCase("y_string_escaped_noncharacter", "\\uFFFF", "the noncharacter U+FFFF as \\uFFFF"),
  stringCase("y_string_last_surrogates_1_and_2", "\\uDBFF\\uDFFF", "the last surrogate pair (U+10FFFF) as \\uDBFF\\uDFFF"),
  stringCase("y_string_nbsp_uescaped", "new\\u00A0line", "a no-break space as \\u00A0"),
  stringCase("y_string_nonCharacterInUTF-8_U+10FFFF", "\u{10FFFF}", "U+10FFFF written as its 4 UTF-8 bytes"),
  stringCase("y_string_nonCharacterInUTF-8_U+FFFF", "\uFFFF", "U+FFFF written as its 3 UTF-8 bytes"),
  stringCase("y_string_null_escape", "\\u0000", "a NUL character as \\u0000"),
  stringCase("y_string_reservedCharacterInUTF-8_U+1BFFF", "\u{1BFFF}", "the unassigned U+1BFFF written as its 4 UTF-8 bytes"),
  stringCase("y_string_surrogates_U+1D11E_MUSICAL_SYMBOL_G_CLEF", "\\uD834\\uDd1e", "U+1D11E as the surrogate pair \\uD834\\uDd1e, hex case mixed"),
  stringCase("y_string_accepted_surrogate_pairs", "\\ud83d\\ude39\\ud83d\\udc8d", "two surrogate pairs in a row"),
  stringCase("y_string_u+2028_line_sep", "\u2028", "U+2028 LINE SEPARATOR unescaped"),
  stringCase("y_string_u+2029_par_sep", "\u2029", "U+2029 PARAGRAPH SEPARATOR unescaped"),
  stringCase("y_string_uescaped_newline", "new\\u000Aline", "a newline as \\u000A"),
  stringCase("y_string_unescaped_char_delete", "\u007f", "DEL (U+007F) unescaped"),
  stringCase("y_string_unicode_U+10FFFE_nonchar", "\\uDBFF\\uDFFE", "the noncharacter U+10FFFE as a surrogate pair"),
  stringCase("y_string_unicode_U+1FFFE_nonchar", "\\uD83F\\uDFFE", "the noncharacter U+1FFFE as a surrogate pair"),
  stringCase("y_string_unicode_U+200B_ZERO_WIDTH_SPACE", "\\u200B", "ZERO WIDTH SPACE as \\u200B"),
  stringCase("y_string_unicode_U+2064_invisible_plus", "\\u2064", "INVISIBLE PLUS as \\u2064"),
  stringCase("y_string_unicode_U+FDD0_nonchar", "\\uFDD0", "the noncharacter U+FDD0 as \\uFDD0"),
  stringCase("y_string_unicode_U+FFFE_nonchar", "\\uFFFE", "the noncharacter U+FFFE as \\uFFFE"),
  stringCase("y_string_unicode_escaped_double_quote", "\\u0022", 'a double quote as \\u0022'),
  stringCase("y_string_unicodeEscapedBackslash", "\\u005C", "a backslash as \\u005C"),
  stringCase("y_string_unicode", "\\uA66D", "U+A66D as \\uA66D"),
  stringCase("y_string_utf8", "€𝄞", "a 3-byte and a 4-byte character written as UTF-8"),
];

/** Every spelling case, in the order of fixtures/spellings.jsonl (sequence numbers GENERATED_FIXTURE_COUNT + index). */
export const SPELLING_CASES: readonly SpellingCase[] = [...BENCH_CASES, ...SUITE_CASES];

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
