/**
 * Produces generated records to one partition at a fixed offered rate through librdkafka:
 * lz4, acks=all, idempotent. Offered counts a record only once the broker has acknowledged
 * it: librdkafka's own delivery accounting (the idempotent producer's acked_msgid, from its
 * once-a-second statistics) rather than one JS delivery-report callback per record, which at
 * 200k/s cost more CPU than some products under test and fell seconds behind. When the
 * producer cannot keep the asked rate it says so: a gendata that falls behind must never be
 * read as a product's limit.
 *
 * A broker that goes away (a clean stop or a SIGKILL) is waited out: librdkafka keeps the records
 * in its queue, reconnects with its backoff and, being idempotent, writes each of them once when
 * the broker is back. Its "broker transport failure" and "all broker connections are down" while
 * the broker is away are states, not failures, and are counted apart (transientErrors). A broker's
 * clean stop first answers metadata with itself unregistered: librdkafka then decommissions the
 * one broker it knew and, by default, bootstraps again only after five minutes without metadata,
 * so gendata asks for that within REBOOTSTRAP_MS instead. A fatal error
 * leaves the instance unusable (librdkafka's rule), and a broker that takes no record for
 * giveUpSec while records wait is not coming back: either way the producer gives up, with the
 * reason, and the caller ends the scenario with it rather than blame a product for the silence.
 */
import rdkafka from "@confluentinc/kafka-javascript";
import { KAFKA_SETTINGS, RecordEncoder, type PoisonPill } from "@bench/core";

export interface RateProducerOptions {
  bootstrap: string;
  topic: string;
  seed: number;
  /** First sequence number (fixtures take the ones below). */
  startSeq: number;
  /** Records per second offered. */
  rate: number;
  /** Malformed records to interleave, sorted by beforeSeq; they are extra to the rate. */
  poison?: readonly PoisonPill[];
  /** Send this many records, then stop offering (a drain run's pre-fill); absent: until stop(). */
  count?: number;
  /** Seconds with records waiting and none acknowledged after which the producer gives up (default GIVE_UP_SEC). */
  giveUpSec?: number;
}

/** Longer than a broker's clean stop, its time down and its start together, with librdkafka's reconnect backoff on top. */
export const GIVE_UP_SEC = 120;

export interface ProducerCounters {
  /** Handed to librdkafka. */
  sent: number;
  /** Acknowledged by the broker. */
  delivered: number;
  /** Fatal producer errors: they cost the records in librdkafka's queue (the broker being away is not one: see transientErrors). */
  failed: number;
  /** librdkafka's error events, which it recovers from by itself: the broker away, a request timed out. */
  transientErrors: number;
  /** Records the schedule wanted by now that were not yet sent. */
  behind: number;
  nextSeq: number;
  /** Malformed records handed to librdkafka (not in sent). */
  poisonSent: number;
}

interface PartitionStats {
  topics?: Record<string, { partitions?: Record<string, { acked_msgid?: number }> }>;
}

/**
 * How long librdkafka goes without metadata before it bootstraps again: well inside a broker's
 * restart, so the producer finds the broker again as soon as it answers.
 */
export const REBOOTSTRAP_MS = 5000;

/** The most records handed over in one event-loop turn, so delivery reports get served too. */
const MAX_CHUNK = 4096;

export class RateProducer {
  private readonly producer: rdkafka.Producer;
  private readonly encoder: RecordEncoder;
  private sent = 0;
  private poisonSent = 0;
  private delivered = 0;
  private failed = 0;
  private transientErrors = 0;
  private lastAckAt = performance.now();
  private gaveUpBecause: string | undefined;
  private behind = 0;
  private running = false;
  private startedAt = 0;
  private lastError: string | undefined;
  private resolveDone: () => void = () => undefined;
  /** Resolves once `count` records have been handed to librdkafka (never without a count). */
  readonly done = new Promise<void>((resolve) => {
    this.resolveDone = resolve;
  });

  constructor(private readonly opts: RateProducerOptions) {
    this.encoder = new RecordEncoder(opts.seed);
    this.producer = new rdkafka.Producer({
      "metadata.broker.list": opts.bootstrap,
      "client.id": "gendata",
      // The products' producer settings: gendata writes the input the way they write output.
      ...KAFKA_SETTINGS.producer,
      "queue.buffering.max.messages": 1_000_000,
      "statistics.interval.ms": 1000,
      "metadata.recovery.rebootstrap.trigger.ms": REBOOTSTRAP_MS,
      dr_cb: false,
    } as rdkafka.ProducerGlobalConfig);
    this.producer.on("event.stats", (event: { message: string }) => {
      const stats = JSON.parse(event.message) as PartitionStats;
      const acked = stats.topics?.[opts.topic]?.partitions?.["0"]?.acked_msgid;
      if (acked !== undefined && acked > this.delivered) {
        this.delivered = acked;
        this.lastAckAt = performance.now();
      }
    });
    // librdkafka's error events are informational: it recovers from them by itself (the binding
    // passes only their text). A fatal error shows where it matters, as produce() failing with ERR__FATAL.
    this.producer.on("event.error", (err: rdkafka.LibrdKafkaError) => {
      this.transientErrors++;
      this.lastError = String(err.message ?? err);
    });
  }

  /** Why the producer gave up (fatal error, or no acknowledgement for giveUpSec), once it has. */
  gaveUp(): string | undefined {
    return this.gaveUpBecause;
  }

  private giveUp(why: string): void {
    if (this.gaveUpBecause !== undefined) return;
    this.gaveUpBecause = why;
    this.running = false;
  }

  /** Gives up when records have waited giveUpSec with none acknowledged (stallReason). */
  private checkStall(now: number): void {
    const waiting = this.sent + this.poisonSent - this.delivered;
    if (waiting <= 0) this.lastAckAt = now;
    const why = stallReason(waiting, now - this.lastAckAt, (this.opts.giveUpSec ?? GIVE_UP_SEC) * 1000, this.lastError);
    if (why !== undefined) this.giveUp(why);
  }

  async connect(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.producer.once("ready", () => resolve());
      this.producer.once("connection.failure", (err) => reject(new Error(`gendata cannot reach ${this.opts.bootstrap}: ${err.message}`)));
      this.producer.connect({ timeout: 20_000 });
    });
    this.producer.setPollInterval(100);
  }

  start(): void {
    this.running = true;
    this.startedAt = performance.now();
    this.lastAckAt = this.startedAt;
    this.tick();
  }

  private tick(): void {
    if (!this.running) return;
    this.checkStall(performance.now());
    if (!this.running) return;
    const elapsed = (performance.now() - this.startedAt) / 1000;
    const due = Math.min(Math.floor(elapsed * this.opts.rate), this.opts.count ?? Number.POSITIVE_INFINITY) - this.sent;
    const now = Date.now();
    const chunk = Math.min(due, MAX_CHUNK);
    let i = 0;
    try {
      for (; i < chunk; i++) {
        const seq = this.opts.startSeq + this.sent;
        const pill = this.opts.poison?.[this.poisonSent];
        if (pill && pill.beforeSeq <= seq) {
          this.producer.produce(this.opts.topic, 0, pill.value, "poison", now);
          this.poisonSent++;
        }
        const { key, value } = this.encoder.encode(seq, now);
        this.producer.produce(this.opts.topic, 0, Buffer.from(value), key, now);
        this.sent++;
      }
    } catch (error) {
      // Local queue full: librdkafka is behind the broker; the schedule keeps count of what is owed.
      this.lastError = (error as Error).message;
      if ((error as { code?: number }).code === rdkafka.CODES.ERRORS.ERR__FATAL) {
        this.failed++;
        this.giveUp(`a fatal producer error (${this.lastError}): librdkafka's instance cannot be used again`);
        return;
      }
    }
    this.behind = Math.max(0, due - i);
    if (this.opts.count !== undefined && this.sent >= this.opts.count) {
      this.resolveDone();
      return;
    }
    if (due > MAX_CHUNK) setImmediate(() => this.tick());
    else setTimeout(() => this.tick(), 1);
  }

  counters(): ProducerCounters & { lastError?: string; gaveUp?: string } {
    return {
      sent: this.sent,
      delivered: this.delivered,
      failed: this.failed,
      transientErrors: this.transientErrors,
      behind: this.behind,
      nextSeq: this.opts.startSeq + this.sent,
      poisonSent: this.poisonSent,
      ...(this.lastError ? { lastError: this.lastError } : {}),
      ...(this.gaveUpBecause ? { gaveUp: this.gaveUpBecause } : {}),
    };
  }

  /** Stops offering and waits (up to timeoutMs) until the broker has acknowledged every sent record. */
  async stop(timeoutMs = 30_000): Promise<void> {
    this.running = false;
    const flushed = await new Promise<boolean>((resolve) => this.producer.flush(timeoutMs, (err) => resolve(!err)));
    // A clean flush means every record was acknowledged (failures surface as event.error; the
    // broker's absence, waited out, is none).
    if (flushed && this.failed === 0 && this.gaveUpBecause === undefined) this.delivered = this.sent + this.poisonSent;
    await new Promise<void>((resolve) => this.producer.disconnect(() => resolve()));
  }
}

/**
 * Why a producer with `waiting` records and none acknowledged for `msSinceAck` gives up, or
 * undefined while it waits on: a broker that is restarting takes no record for a while, which
 * librdkafka waits out; past `limitMs` the broker is not coming back for it.
 */
export function stallReason(waiting: number, msSinceAck: number, limitMs: number, lastError: string | undefined): string | undefined {
  if (waiting <= 0 || msSinceAck <= limitMs) return undefined;
  return `no record acknowledged for ${Math.round(limitMs / 1000)} s with ${waiting} waiting (last error: ${lastError ?? "none"})`;
}
