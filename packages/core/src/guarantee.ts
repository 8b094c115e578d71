/**
 * The delivery guarantee a bench runs every row under. At-least-once is the default: a crash
 * replays what was not committed, so duplicates are possible and losses are not. Exactly-once
 * into Kafka means a reader with isolation.level=read_committed sees every output once: the
 * outputs and the consumed offsets are committed together (a Kafka transaction) or not at all.
 */
export const GUARANTEES = ["at-least-once", "exactly-once"] as const;
export type Guarantee = (typeof GUARANTEES)[number];
export const DEFAULT_GUARANTEE: Guarantee = "at-least-once";

/**
 * What a row's framework offers for exactly-once into Kafka, as its docs say. `how` names the
 * mechanism and the settings the row sets; `commits` says when a transaction commits (the interval
 * a read-committed reader waits for), at the framework's documented default where it lets you
 * choose. A row that offers none says why, with where its docs say so.
 */
export type ExactlyOnceOffer = { offered: true; how: string; commits: string } | { offered: false; why: string };

/**
 * The transactional id a row's producer registers with, one per run: a restarted instance of the
 * run (the faults scenario's kill -9, then start) takes the same id, so the broker fences the
 * killed instance and aborts its open transaction before the new one writes.
 */
export const transactionalIdFor = (groupId: string): string => `${groupId}.tx`;

/** A row not run under exactly-once keeps this reason, which the page reads back to list it apart. */
export const NO_EXACTLY_ONCE = "no exactly-once into Kafka: ";

export function parseGuarantee(value: string): Guarantee {
  const found = GUARANTEES.find((g) => g === value);
  if (!found) throw new Error(`unknown guarantee ${JSON.stringify(value)}; known: ${GUARANTEES.join(", ")}`);
  return found;
}
