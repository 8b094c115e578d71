/**
 * Poison pills: malformed input records of each kind a real topic collects, and a seeded
 * schedule that places them among the good ones. A product should skip (or dead-letter) each
 * one and score the good records around it. Pills carry "p<n>" ids where they carry an id at
 * all, so an output for a pill is told apart from every good record's "e<seq>".
 */
import { FIXTURE_SEED, FIXTURE_TS_MS } from "./fixtures.ts";
import { makeRecord } from "./generator.ts";
import { mulberry32 } from "./random.ts";

export const POISON_KINDS = [
  "not-json",
  "empty",
  "missing-fields",
  "wrong-types",
  "out-of-range",
  "json-array",
  "binary",
] as const;
export type PoisonKind = (typeof POISON_KINDS)[number];

export interface PoisonPill {
  /** One of the faults run's kinds, or "refusal": one of the gate's must-refuse cases (REFUSAL_CASES), named in `refusal`. */
  kind: PoisonKind | "refusal";
  /** The must-refuse case's name, for a "refusal" pill. */
  refusal?: string;
  /** The pill's place: it is produced right before the good record with this sequence number. */
  beforeSeq: number;
  value: Buffer;
}

export function poisonIdFor(n: number): string {
  return `p${n}`;
}

/** The bytes of pill number n of a kind; deterministic, so a schedule is rebuilt from its seed. */
export function poisonValue(kind: PoisonKind, n: number): Buffer {
  const id = poisonIdFor(n);
  switch (kind) {
    case "not-json":
      return Buffer.from(`{"event_id":"${id}","latency_ms":12.5,"queue_dep`);
    case "empty":
      return Buffer.alloc(0);
    case "missing-fields":
      return Buffer.from(`{"event_id":"${id}","ts_ms":1764547200000,"service":"checkout"}`);
    case "wrong-types":
      return Buffer.from(
        `{"event_id":"${id}","ts_ms":"yesterday","partition_key":"k0","latency_ms":"fast","queue_depth":null,"cpu_usage":[1],"error_count":{"n":1}}`,
      );
    case "out-of-range":
      // 1e999 overflows a double: a parser reads Infinity (or refuses it).
      return Buffer.from(`{"event_id":"${id}","ts_ms":1764547200000,"partition_key":"k0","latency_ms":1e999,"queue_depth":3,"cpu_usage":40,"error_count":1}`);
    case "json-array":
      return Buffer.from(`[{"event_id":"${id}","latency_ms":1,"queue_depth":1,"cpu_usage":1,"error_count":1}]`);
    case "binary": {
      // Not UTF-8 and not JSON: a stray Avro or protobuf frame looks like this.
      const rng = mulberry32(0xb1 + n);
      const bytes = Buffer.alloc(48);
      for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(rng() * 256);
      bytes[0] = 0x00;
      bytes[1] = 0xff;
      return bytes;
    }
  }
}

/**
 * `rounds` pills of every kind (7 × rounds in all), each kind once per round in a seeded order,
 * placed at distinct seeded positions in [firstSeq, firstSeq + span). Same arguments, same pills.
 */
export function poisonSchedule(opts: { seed: number; rounds: number; firstSeq: number; span: number }): PoisonPill[] {
  const count = POISON_KINDS.length * opts.rounds;
  if (opts.span < count) throw new Error(`poison schedule: ${count} pills do not fit in a span of ${opts.span} records`);
  const rng = mulberry32(opts.seed ^ 0x5eed_b111);
  const kinds: PoisonKind[] = [];
  for (let r = 0; r < opts.rounds; r++) {
    const round = [...POISON_KINDS];
    for (let i = round.length - 1; i > 0; i--) {
      const j = Math.floor(rng() * (i + 1));
      [round[i], round[j]] = [round[j] as PoisonKind, round[i] as PoisonKind];
    }
    kinds.push(...round);
  }
  const positions = new Set<number>();
  while (positions.size < count) positions.add(opts.firstSeq + Math.floor(rng() * opts.span));
  const sorted = [...positions].sort((a, b) => a - b);
  return kinds.map((kind, n) => ({ kind, beforeSeq: sorted[n] as number, value: poisonValue(kind, n) }));
}

/**
 * The gate's must-refuse cases beyond the pill kinds: a record is one JSON object, so text whose
 * top-level value is anything else is refused however record-like it is inside, and a number JSON
 * does not allow (JSONTestSuite's n_number cases, written where a metric goes in an otherwise
 * complete record) is refused, not read by a lenient parser's rule. A row that reads one of them
 * declares it beside the row (PoisonFindings), as a misread spelling is declared.
 */
export interface RefusalCase {
  name: string;
  about: string;
  value: Buffer;
}

/** A row's declared readings of must-refuse cases, by case name: what it does with it, and why. */
export type PoisonFindings = Readonly<Record<string, { outcome: "scored"; why: string }>>;

/** JSONTestSuite's n_number cases (test_parsing/n_number_*.json, each there as `[<text>]`) that are one token. */
const N_NUMBERS: ReadonlyArray<readonly [string, string]> = [
  ["n_number_++", "++1234"],
  ["n_number_+1", "+1"],
  ["n_number_+Inf", "+Inf"],
  ["n_number_-01", "-01"],
  ["n_number_-1.0.", "-1.0."],
  ["n_number_-2.", "-2."],
  ["n_number_-NaN", "-NaN"],
  ["n_number_.-1", ".-1"],
  ["n_number_.2e-3", ".2e-3"],
  ["n_number_0.1.2", "0.1.2"],
  ["n_number_0.3e+", "0.3e+"],
  ["n_number_0.3e", "0.3e"],
  ["n_number_0.e1", "0.e1"],
  ["n_number_0_capital_E+", "0E+"],
  ["n_number_0e+", "0e+"],
  ["n_number_1.0e+", "1.0e+"],
  ["n_number_1.0e-", "1.0e-"],
  ["n_number_1eE2", "1eE2"],
  ["n_number_2.e+3", "2.e+3"],
  ["n_number_9.e+", "9.e+"],
  ["n_number_Inf", "Inf"],
  ["n_number_NaN", "NaN"],
  ["n_number_hex_1_digit", "0x1"],
  ["n_number_hex_2_digits", "0x42"],
  ["n_number_infinity", "Infinity"],
  ["n_number_invalid+-", "0e+-1"],
  ["n_number_invalid-negative-real", "-123.123foo"],
  ["n_number_minus_infinity", "-Infinity"],
  ["n_number_minus_sign_with_trailing_garbage", "-foo"],
  ["n_number_neg_int_starting_with_zero", "-012"],
  ["n_number_neg_real_without_int_part", "-.123"],
  ["n_number_neg_with_garbage_at_end", "-1x"],
  ["n_number_real_garbage_after_e", "1ea"],
  ["n_number_real_without_fractional_part", "1."],
  ["n_number_starting_with_dot", ".123"],
  ["n_number_with_alpha", "1.2a-3"],
  ["n_number_with_leading_zero", "012"],
];

/** A complete, well-formed record with a pill's id (p<n>), whose `latency_ms` is written as `latency`. */
function recordText(n: number, latency?: string): string {
  const { event_id: _generated, ...rest } = makeRecord(FIXTURE_SEED, n, FIXTURE_TS_MS);
  const text = JSON.stringify({ event_id: poisonIdFor(n), ...rest });
  return latency === undefined ? text : text.replace(/"latency_ms":[^,}]+/, `"latency_ms":${latency}`);
}

/** Ids from here on: apart from any faults run's pills (p0 … p<7 × rounds>). */
const REFUSAL_ID_BASE = 1000;

export const REFUSAL_CASES: readonly RefusalCase[] = [
  { name: "top_level_number", about: "a top-level number", value: Buffer.from("42") },
  { name: "top_level_string", about: "a top-level string holding a record's text", value: Buffer.from(JSON.stringify(recordText(REFUSAL_ID_BASE))) },
  { name: "top_level_null", about: "a top-level null", value: Buffer.from("null") },
  { name: "top_level_true", about: "a top-level true", value: Buffer.from("true") },
  {
    name: "top_level_array_of_record",
    about: "a top-level array holding one complete record object",
    value: Buffer.from(`[${recordText(REFUSAL_ID_BASE + 1)}]`),
  },
  ...N_NUMBERS.map(([name, text], i) => ({
    name,
    about: `latency_ms written ${text} in an otherwise complete record (JSONTestSuite ${name}.json)`,
    value: Buffer.from(recordText(REFUSAL_ID_BASE + 2 + i, text)),
  })),
];

/** The must-refuse cases as pills among the gate's generated fixtures (one every few records from `firstSeq`), less those `skip` names. */
export function refusalPills(firstSeq: number, span: number, skip: ReadonlySet<string> = new Set()): PoisonPill[] {
  return REFUSAL_CASES.flatMap((c, i) => {
    if (skip.has(c.name)) return [];
    return [{ kind: "refusal" as const, refusal: c.name, beforeSeq: firstSeq + Math.floor((i * span) / REFUSAL_CASES.length), value: c.value }];
  });
}
