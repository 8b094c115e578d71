/**
 * Poison pills: malformed input records of each kind a real topic collects, and a seeded
 * schedule that places them among the good ones. A product should skip (or dead-letter) each
 * one and score the good records around it. Pills carry "p<n>" ids where they carry an id at
 * all, so an output for a pill is told apart from every good record's "e<seq>".
 */
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
  kind: PoisonKind;
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
