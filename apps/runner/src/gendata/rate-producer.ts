/**
 * Produces generated records to one partition at a fixed offered rate through librdkafka:
 * lz4, acks=all, idempotent. Offered counts a record only once the broker has acknowledged
 * it: librdkafka's own delivery accounting (the idempotent producer's acked_msgid, from its
 * once-a-second statistics) rather than one JS delivery-report callback per record, which at
 * 200k/s cost more CPU than some products under test and fell seconds behind. When the
 * producer cannot keep the asked rate it says so: a gendata that falls behind must never be
 * read as a product's limit.
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
}

export interface ProducerCounters {
  /** Handed to librdkafka. */
  sent: number;
  /** Acknowledged by the broker. */
  delivered: number;
  failed: number;
  /** Records the schedule wanted by now that were not yet sent. */
  behind: number;
  nextSeq: number;
  /** Malformed records handed to librdkafka (not in sent). */
  poisonSent: number;
}

interface PartitionStats {
  topics?: Record<string, { partitions?: Record<string, { acked_msgid?: number }> }>;
}

/** The most records handed over in one event-loop turn, so delivery reports get served too. */
const MAX_CHUNK = 4096;

export class RateProducer {
  private readonly producer: rdkafka.Producer;
  private readonly encoder: RecordEncoder;
  private sent = 0;
  private poisonSent = 0;
  private delivered = 0;
  private failed = 0;
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
      dr_cb: false,
    } as rdkafka.ProducerGlobalConfig);
    this.producer.on("event.stats", (event: { message: string }) => {
      const stats = JSON.parse(event.message) as PartitionStats;
      const acked = stats.topics?.[opts.topic]?.partitions?.["0"]?.acked_msgid;
      if (acked !== undefined) this.delivered = Math.max(this.delivered, acked);
    });
    this.producer.on("event.error", (err) => {
      this.failed++;
      this.lastError = String(err.message ?? err);
    });
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
    this.tick();
  }

  private tick(): void {
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
    }
    this.behind = Math.max(0, due - i);
    if (this.opts.count !== undefined && this.sent >= this.opts.count) {
      this.resolveDone();
      return;
    }
    if (due > MAX_CHUNK) setImmediate(() => this.tick());
    else setTimeout(() => this.tick(), 1);
  }

  counters(): ProducerCounters & { lastError?: string } {
    return {
      sent: this.sent,
      delivered: this.delivered,
      failed: this.failed,
      behind: this.behind,
      nextSeq: this.opts.startSeq + this.sent,
      poisonSent: this.poisonSent,
      ...(this.lastError ? { lastError: this.lastError } : {}),
    };
  }

  /** Stops offering and waits (up to timeoutMs) until the broker has acknowledged every sent record. */
  async stop(timeoutMs = 30_000): Promise<void> {
    this.running = false;
    const flushed = await new Promise<boolean>((resolve) => this.producer.flush(timeoutMs, (err) => resolve(!err)));
    // A clean flush means every record was acknowledged (failures surface as event.error).
    if (flushed && this.failed === 0) this.delivered = this.sent + this.poisonSent;
    await new Promise<void>((resolve) => this.producer.disconnect(() => resolve()));
  }
}
