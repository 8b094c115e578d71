/**
 * The bench's own records apart from foreign ones. A row's input topic holds what the bench wrote
 * (the gate's fixtures, gendata's records e<seq>, a faults run's seeded pills) and whatever else
 * someone wrote there. A foreign record is none of those: the audit reports it as foreign (how
 * many, at which offsets, how many of them malformed), "lost" counts only the bench's own records
 * that never came out, and a record a row rightly skipped is no backlog it left undone.
 */
import { FIXTURE_COUNT, readOutput, readTopic, seqOfEventId } from "@bench/core";
import type { ForeignRecords } from "../results/types.ts";

/** The first this many foreign offsets are kept: enough to find them, not a copy of the topic. */
const OFFSETS_KEPT = 20;

/** What gendata's final report says it wrote; a report cut short (no final line) says nothing. */
export interface FeedFinal {
  final?: boolean;
  sent: number;
  delivered: number;
  poisonSent?: number;
}

/**
 * How many records in the input are the bench's own: the fixtures and every record gendata sent
 * (pills included), once its final report says each was acknowledged; undefined when it cannot say.
 */
export function ownInputCount(final: FeedFinal | undefined): number | undefined {
  if (!final?.final || final.delivered < final.sent + (final.poisonSent ?? 0)) return undefined;
  return FIXTURE_COUNT + final.sent + (final.poisonSent ?? 0);
}

/**
 * The final reports of the feeds a session or scenario ran one after another (a step's, a drain's
 * fill, a burst's) as one: their records continue each other's sequence numbers, so the bench's
 * own are their sum. A feed that gave no final report, or one never stopped (`open`), leaves the
 * sum unknown: the result is then not final, and ownInputCount says nothing.
 */
export function combinedFinal(finals: readonly FeedFinal[], open = 0): FeedFinal {
  const sum = (pick: (f: FeedFinal) => number): number => finals.reduce((total, f) => total + pick(f), 0);
  return {
    final: open === 0 && finals.every((f) => f.final === true),
    sent: sum((f) => f.sent),
    delivered: sum((f) => f.delivered),
    poisonSent: sum((f) => f.poisonSent ?? 0),
  };
}

/** Sorts one input record: the bench's good record (an e<seq> it produced), one of its pills, or foreign. */
export function isOwnInput(value: Uint8Array, produced: number, pills: ReadonlySet<string>): boolean {
  if (pills.has(Buffer.from(value).toString("latin1"))) return true;
  const read = readOutput(value);
  if (!read.ok) return false;
  const seq = seqOfEventId(read.eventId);
  return seq !== undefined && seq < produced;
}

/** Tallies foreign records one at a time (pure: unit-tested without a broker). */
export class ForeignTally {
  private readonly found: ForeignRecords = { count: 0, offsets: [], malformed: 0 };

  constructor(private readonly produced: number, private readonly pills: ReadonlySet<string>) {}

  add(offset: number, value: Uint8Array): void {
    if (isOwnInput(value, this.produced, this.pills)) return;
    this.found.count++;
    if (!readOutput(value).ok) this.found.malformed++;
    if (this.found.offsets.length < OFFSETS_KEPT) this.found.offsets.push(offset);
  }

  result(): ForeignRecords {
    return this.found;
  }
}

/**
 * The foreign records of an input topic whose end passes the bench's own count: read only then
 * (a run nobody else wrote to reads nothing more). `produced`: the bench's good records have seq below it.
 */
export async function foreignInput(
  bootstrap: string,
  inputTopic: string,
  opts: { inputEnd: number; own: number; produced: number; pills?: ReadonlyArray<Uint8Array> },
): Promise<ForeignRecords | undefined> {
  if (opts.inputEnd <= opts.own) return undefined;
  const tally = new ForeignTally(opts.produced, new Set((opts.pills ?? []).map((p) => Buffer.from(p).toString("latin1"))));
  await readTopic(bootstrap, inputTopic, (batch) => batch.forEach((m) => tally.add(m.offset, m.value)), {
    stopAt: opts.inputEnd,
    untilOffset: opts.inputEnd,
    idleMs: 10_000,
  });
  const found = tally.result();
  return found.count > 0 ? found : undefined;
}
