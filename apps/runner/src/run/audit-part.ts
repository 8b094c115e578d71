/**
 * One reader's share of the output audit: the records at offsets [from, until) of the output
 * topic, read by core's native output reader (or, without one, the binding), each accounted
 * (audit-account.ts) and its latency recorded per window. A large topic is read by several parts
 * at once, the first in the runner and each other in a child process of its own (audit-child.ts:
 * the binding does not load in a worker thread), and their tallies absorbed in offset order.
 */
import * as hdr from "hdr-histogram-js";
import { readTopic, readTopicNative } from "@bench/core";
import type { DeliveryCheck } from "../results/types.ts";
import { OutputAccount, type Tallies } from "./audit-account.ts";

export interface PartRequest {
  bootstrap: string;
  outputTopic: string;
  from: number;
  /** The first offset past this part; the last part's is the output's end. */
  until: number;
  /** How long the last part waits for records that have not come (transaction markers take offsets). */
  idleMs: number;
  produced: number;
  passthrough: boolean;
  stride: number;
  windowsMs: Array<[number, number]>;
  /** Seqs whose outputs are not re-scored (audit.ts' unscored), as a list: a request crosses to a child process. */
  unscored?: number[];
  /** core's native output reader (its binary); absent: the binding reads. */
  reader?: string;
  /** The row wrote in transactions (exactly-once): a record's latency ends when its transaction commits (TransactionRuns). */
  transactional?: boolean;
}

export interface PartResult {
  tallies: Tallies;
  latency: EncodedLatency[];
}

export async function auditPart(req: PartRequest): Promise<PartResult> {
  const account = new OutputAccount(
    { produced: req.produced, passthrough: req.passthrough, stride: req.stride, ...(req.unscored ? { unscored: new Set(req.unscored) } : {}) },
  );
  const windows = req.windowsMs.map((range) => ({ range, latency: new WindowLatency() }));
  const record = (ts: number | undefined, visibleAt: number): void => {
    if (ts === undefined || visibleAt < ts) return;
    for (const w of windows) if (ts >= w.range[0] && ts <= w.range[1]) w.latency.record(visibleAt - ts);
  };
  const runs = req.transactional ? new TransactionRuns(record) : undefined;
  const latency = (offset: number, ts: number | undefined, timestamp: number): void => (runs ? runs.add(offset, ts, timestamp) : record(ts, timestamp));
  const range = { fromOffset: req.from, untilOffset: req.until, idleMs: req.idleMs };
  if (req.reader !== undefined) {
    await readTopicNative(req.reader, req.bootstrap, req.outputTopic, { ...range, produced: req.produced, passthrough: req.passthrough }, {
      decoded: (offset, seq, tsMs, risk, timestamp) => {
        account.addDecoded(offset, seq, risk);
        latency(offset, tsMs, timestamp);
      },
      raw: (m) => latency(m.offset, account.add(m)?.tsMs, m.timestamp),
    });
  } else {
    await readTopic(
      req.bootstrap,
      req.outputTopic,
      (batch) => batch.forEach((m) => latency(m.offset, account.add(m)?.tsMs, m.timestamp)),
      { ...range, stopAt: req.until - req.from },
    );
  }
  runs?.end();
  return { tallies: account.tallies(), latency: windows.map((w) => w.latency.encode()) };
}

/**
 * When a transactional row's outputs become visible. A read-committed reader sees a record once
 * its transaction commits, and the commit's marker takes the offset after the transaction's last
 * record: on the one output partition, whose one writer runs one transaction at a time, the
 * records between two offset gaps (markers, or an aborted transaction skipped) are one
 * transaction. Each record's latency then ends at the latest broker timestamp of its transaction,
 * the last append before the commit (a bound below the commit itself by the commit's round trip).
 * A transaction that straddles two audit parts is split there and each half ends at its own last append.
 */
export class TransactionRuns {
  private produceMs: Array<number | undefined> = [];
  private latestAppend = 0;
  private lastOffset = Number.NaN;

  constructor(private readonly record: (ts: number | undefined, visibleAt: number) => void) {}

  add(offset: number, ts: number | undefined, timestamp: number): void {
    if (offset !== this.lastOffset + 1) this.end();
    this.lastOffset = offset;
    this.produceMs.push(ts);
    this.latestAppend = Math.max(this.latestAppend, timestamp);
  }

  /** The transaction in hand is complete: its records are recorded as visible at its last append. */
  end(): void {
    for (const ts of this.produceMs) this.record(ts, this.latestAppend);
    this.produceMs = [];
    this.latestAppend = 0;
  }
}

export interface EncodedLatency {
  /** hdr-histogram's compressed base64, empty when nothing was recorded. */
  histogram: string;
  count: number;
}

/** End-to-end ms of one window's records. */
export class WindowLatency {
  private readonly histogram = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000, numberOfSignificantValueDigits: 3 });
  private count = 0;

  record(ms: number): void {
    this.histogram.recordValue(ms);
    this.count++;
  }

  /** The histogram as text for another thread; it is freed. */
  encode(): EncodedLatency {
    const encoded = { histogram: this.count > 0 ? hdr.encodeIntoCompressedBase64(this.histogram) : "", count: this.count };
    this.histogram.destroy();
    return encoded;
  }

  /** Adds another part's records of the same window. */
  absorb(other: EncodedLatency): void {
    if (other.count === 0) return;
    const decoded = hdr.decodeFromCompressedBase64(other.histogram);
    this.histogram.add(decoded);
    decoded.destroy();
    this.count += other.count;
  }

  /** The figures (none when no record fell in the window); the histogram is freed. */
  done(): DeliveryCheck["latencyMs"] {
    const figures = this.count > 0
      ? { p50: this.histogram.getValueAtPercentile(50), p99: this.histogram.getValueAtPercentile(99), max: this.histogram.maxValue, count: this.count }
      : undefined;
    this.histogram.destroy();
    return figures;
  }
}
