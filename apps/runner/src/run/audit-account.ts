/**
 * The audit's per-output accounting, pure so that a unit test can feed it any output a product
 * might write. Lost and duplicated come from the event ids (dense sequence numbers, a byte per
 * record); every output the audit cannot use is a bad output, counted with its offset, never
 * thrown: not UTF-8 JSON, no string event_id, no numeric risk (a scoring row), or an id that was
 * never produced. A bad output does not deliver its record.
 */
import { outputHead, readOutput, seqOfEventId, type BadOutput, type ConsumedMessage } from "@bench/core";

/** The first few bad outputs are kept (offset, why, first bytes); the rest are counted. */
export const BAD_OUTPUT_SAMPLES = 5;

export interface AccountedOutput {
  seq: number;
  /** The output's ts_ms as a number (NaN when it is not one). */
  tsMs: number;
}

export interface Account {
  distinct: number;
  duplicated: number;
  badOutputs: number;
  badOutputSamples: BadOutput[];
  /** Sequence numbers and risks of the outputs sampled for re-scoring (NaN: not a number). */
  sampleSeqs: number[];
  sampleRisks: number[];
}

/** An account's raw tallies: what a reader in another thread hands back to be absorbed. */
export interface Tallies {
  /** Outputs per sequence number, saturating at 255. */
  counts: Uint8Array;
  badOutputs: number;
  badOutputSamples: BadOutput[];
  sampleSeqs: number[];
  sampleRisks: number[];
}

export class OutputAccount {
  private readonly counts: Uint8Array;
  private badOutputs = 0;
  private readonly badOutputSamples: BadOutput[] = [];
  private readonly sampleSeqs: number[] = [];
  private readonly sampleRisks: number[] = [];

  /**
   * Every produced record has seq < produced; an output at an offset divisible by stride is
   * re-scored, but for the seqs in `unscored` (a row's declared misread spelling cases, which the
   * gate has already held to their finding: not a mis-score of this run).
   */
  constructor(private readonly opts: { produced: number; passthrough: boolean; stride: number; unscored?: ReadonlySet<number> }) {
    this.counts = new Uint8Array(opts.produced);
  }

  /** Counts one output; returns its record when the output is usable, else counts it as bad. */
  add(m: Pick<ConsumedMessage, "offset" | "value">): AccountedOutput | undefined {
    const read = readOutput(m.value);
    if (!read.ok) return this.bad(m, read.why);
    const seq = seqOfEventId(read.eventId);
    if (seq === undefined || seq >= this.opts.produced) return this.bad(m, `event_id ${JSON.stringify(read.eventId)} was never produced`);
    // A missing, null or non-numeric risk (e.g. an engine's SQL NULL for a chunk whose UDF call
    // failed) is no score at all, never 0.
    if (!this.opts.passthrough && typeof read.risk !== "number") return this.bad(m, `risk ${JSON.stringify(read.risk) ?? "missing"} is not a number`);
    this.addDecoded(m.offset, seq, read.risk as number);
    return { seq, tsMs: Number(read.tsMs) };
  }

  /**
   * Counts one usable output read elsewhere (core's native reader): its seq is below `produced`
   * and its risk a number (any, for a passthrough row).
   */
  addDecoded(offset: number, seq: number, risk: number): void {
    if (this.counts[seq] !== 255) this.counts[seq] = (this.counts[seq] as number) + 1;
    if (!this.opts.passthrough && offset % this.opts.stride === 0 && !this.opts.unscored?.has(seq)) {
      this.sampleSeqs.push(seq);
      this.sampleRisks.push(risk);
    }
  }

  /**
   * `heldTo`: only records with seq below it must have come out (a drain run stopped before its
   * backlog ended holds the committed prefix to done); `distinct` then counts those alone.
   */
  result(heldTo = this.opts.produced): Account {
    let distinct = 0;
    let duplicated = 0;
    this.counts.forEach((c, seq) => {
      if (c > 0 && seq < heldTo) distinct++;
      if (c > 1) duplicated += c - 1;
    });
    return {
      distinct,
      duplicated,
      badOutputs: this.badOutputs,
      badOutputSamples: this.badOutputSamples,
      sampleSeqs: this.sampleSeqs,
      sampleRisks: this.sampleRisks,
    };
  }

  tallies(): Tallies {
    return {
      counts: this.counts,
      badOutputs: this.badOutputs,
      badOutputSamples: this.badOutputSamples,
      sampleSeqs: this.sampleSeqs,
      sampleRisks: this.sampleRisks,
    };
  }

  /**
   * Adds the tallies of another account over later offsets of the same topic: absorbed in offset
   * order, the samples and the first bad outputs come out as one reader would have found them.
   */
  absorb(other: Tallies): void {
    const counts = this.counts;
    other.counts.forEach((c, seq) => {
      if (c > 0) counts[seq] = Math.min(255, (counts[seq] as number) + c);
    });
    this.badOutputs += other.badOutputs;
    for (const b of other.badOutputSamples) if (this.badOutputSamples.length < BAD_OUTPUT_SAMPLES) this.badOutputSamples.push(b);
    other.sampleSeqs.forEach((seq, i) => {
      this.sampleSeqs.push(seq);
      this.sampleRisks.push(other.sampleRisks[i] as number);
    });
  }

  private bad(m: Pick<ConsumedMessage, "offset" | "value">, why: string): undefined {
    this.badOutputs++;
    if (this.badOutputSamples.length < BAD_OUTPUT_SAMPLES) this.badOutputSamples.push({ offset: m.offset, why, head: outputHead(m.value) });
    return undefined;
  }
}
