/**
 * Accounting for a faults run's output topic: every good record (ids e0…e<produced-1>) came
 * out at least once or is lost; repeats (a restart replaying what was not committed) are
 * duplicates; an output for a pill ("p<n>") means a malformed record was scored. Pure, so the
 * counting across a restart is unit-tested on synthetic topic contents.
 */
import { readOutput, seqOfEventId } from "@bench/core";
import type { ForeignRecords, OpenTransaction } from "../results/types.ts";

export interface FaultTally {
  /** Good records produced (fixtures and gendata's), pills not counted. */
  produced: number;
  distinct: number;
  lost: number;
  /** Outputs beyond the first for a good record. */
  duplicated: number;
  /** Outputs carrying a pill's id: a malformed record scored and republished. */
  poisonOut: number;
  /** Outputs that are not UTF-8 JSON objects, carry no event_id, or carry an id no generator made. */
  unreadable: number;
  /** Lost ids as sequence ranges [first, last], in order (where the loss sits, e.g. at the kill). */
  lostRanges: Array<[number, number]>;
  /** Records in the input the bench did not write (run/audit-foreign.ts): reported as foreign, never counted as lost. */
  foreign?: ForeignRecords;
  /** Exactly-once: a transaction open when the audit came to read (run/audit-transaction.ts). */
  openTransaction?: OpenTransaction;
  /** Good records a transaction still open past the bound kept from the reader: not read, not counted as lost. */
  unreadBehindOpenTransaction?: number;
}

export class OutputTally {
  private readonly counts: Uint8Array;
  private poisonOut = 0;
  private unreadable = 0;

  constructor(private readonly produced: number) {
    this.counts = new Uint8Array(produced);
  }

  add(value: Buffer | string): void {
    // The audit's reader: whatever a product wrote is counted, never thrown.
    const read = readOutput(typeof value === "string" ? Buffer.from(value) : value);
    if (!read.ok) {
      this.unreadable++;
      return;
    }
    if (/^p\d+$/.test(read.eventId)) {
      this.poisonOut++;
      return;
    }
    const seq = seqOfEventId(read.eventId);
    if (seq === undefined || seq >= this.produced) {
      this.unreadable++;
      return;
    }
    if (this.counts[seq] !== 255) this.counts[seq] = (this.counts[seq] as number) + 1;
  }

  result(): FaultTally {
    let distinct = 0;
    let duplicated = 0;
    const lostRanges: Array<[number, number]> = [];
    this.counts.forEach((c, seq) => {
      if (c > 0) {
        distinct++;
        duplicated += c - 1;
        return;
      }
      const last = lostRanges[lostRanges.length - 1];
      if (last && last[1] === seq - 1) last[1] = seq;
      else lostRanges.push([seq, seq]);
    });
    return {
      produced: this.produced,
      distinct,
      lost: this.produced - distinct,
      duplicated,
      poisonOut: this.poisonOut,
      unreadable: this.unreadable,
      lostRanges,
    };
  }
}
