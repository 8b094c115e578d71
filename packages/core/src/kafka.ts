/**
 * Kafka helpers the runner, gendata and tests share: topic admin and offsets through kafkajs,
 * record I/O through librdkafka (@confluentinc/kafka-javascript), because products compress
 * with lz4, which kafkajs cannot read.
 */
import rdkafka from "@confluentinc/kafka-javascript";
import { Kafka, logLevel, type Admin } from "kafkajs";

export interface TopicSpec {
  name: string;
  /** Broker-side topic configs, e.g. { "message.timestamp.type": "LogAppendTime" }. */
  config?: Record<string, string>;
}

/** The admin calls KafkaAdmin makes: kafkajs' Admin, or a double in a unit test. */
export type AdminCalls = Pick<Admin, "createTopics" | "deleteTopics" | "listTopics" | "fetchTopicOffsets" | "fetchOffsets" | "disconnect">;

/**
 * One-partition topics and the offsets the bench reads every second.
 *
 * One client serves the whole bench, and a session's topics are deleted after its audit while
 * the next session already reads its own. kafkajs asks the broker for the metadata of every topic
 * the client has touched; one deleted under a request makes the request fail, and the client
 * forgets a topic only once its deletion has returned. A deletion therefore runs alone: it waits
 * for the calls in flight, and calls made meanwhile wait for it.
 */
export class KafkaAdmin {
  private deleting: Promise<void> = Promise.resolve();
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(private readonly admin: AdminCalls) {}

  static async connect(bootstrap: string): Promise<KafkaAdmin> {
    const kafka = new Kafka({ clientId: "bench-admin", brokers: [bootstrap], logLevel: logLevel.NOTHING, retry: { retries: 3 } });
    const admin = kafka.admin();
    await admin.connect();
    return new KafkaAdmin(admin);
  }

  /** Runs `call` once no deletion is under way, counted in flight until it ends. */
  private async besideOthers<T>(call: () => Promise<T>): Promise<T> {
    for (let deletion = this.deleting; ; deletion = this.deleting) {
      await deletion;
      if (deletion === this.deleting) break;
    }
    const running = call();
    this.inFlight.add(running);
    try {
      return await running;
    } finally {
      this.inFlight.delete(running);
    }
  }

  async createTopics(topics: TopicSpec[]): Promise<void> {
    return this.besideOthers(() => this.createTopicsNow(topics));
  }

  private async createTopicsNow(topics: TopicSpec[]): Promise<void> {
    try {
      await this.admin.createTopics({
        waitForLeaders: true,
        topics: topics.map((t) => ({
          topic: t.name,
          numPartitions: 1,
          replicationFactor: 1,
          configEntries: Object.entries(t.config ?? {}).map(([name, value]) => ({ name, value })),
        })),
      });
    } catch (error) {
      // Seen a minute after a broker restart: the topics were created, but kafkajs' wait for their
      // leaders got a retriable "does not host this topic-partition", which it does not retry.
      // Wait for each to answer its offsets instead; a topic that was never created still throws.
      if (!(error as { retriable?: boolean }).retriable) throw error;
      for (const t of topics) await retryRetriable(() => this.admin.fetchTopicOffsets(t.name));
    }
  }

  /** Deletes those of `names` that exist, alone (see the class). */
  async deleteTopics(names: string[]): Promise<void> {
    const previous = this.deleting;
    const deletion = (async () => {
      await previous;
      await Promise.allSettled([...this.inFlight]);
      const existing = new Set(await this.admin.listTopics());
      const doomed = names.filter((n) => existing.has(n));
      if (doomed.length > 0) await this.admin.deleteTopics({ topics: doomed });
    })();
    this.deleting = deletion.then(() => undefined, () => undefined);
    return deletion;
  }

  async listTopics(): Promise<string[]> {
    return this.besideOthers(() => this.admin.listTopics());
  }

  /** High watermark of partition 0: how many records the topic holds (topics start at 0). */
  async endOffset(topic: string): Promise<number> {
    const offsets = await this.besideOthers(() => this.admin.fetchTopicOffsets(topic));
    return Number(offsets.find((o) => o.partition === 0)?.high ?? 0);
  }

  /** The group's committed offset on partition 0, 0 when it has committed nothing yet. */
  async committedOffset(groupId: string, topic: string): Promise<number> {
    const [entry] = await this.besideOthers(() => retryRetriable(() => this.admin.fetchOffsets({ groupId, topics: [topic] })));
    const offset = Number(entry?.partitions.find((p) => p.partition === 0)?.offset ?? -1);
    return offset < 0 ? 0 : offset;
  }

  async close(): Promise<void> {
    await this.admin.disconnect();
  }
}

/** Coordinator moves and a fresh __consumer_offsets answer with retriable errors for a moment. */
async function retryRetriable<T>(call: () => Promise<T>, attempts = 20): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await call();
    } catch (error) {
      if (i >= attempts || !(error as { retriable?: boolean }).retriable) throw error;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

export interface KeyedValue {
  key: string | null;
  value: string | Buffer;
}

/** Produces messages the way gendata does (lz4, acks=all, idempotent) and waits for every ack. */
export async function produceMessages(bootstrap: string, topic: string, messages: KeyedValue[]): Promise<void> {
  const producer = new rdkafka.Producer({
    "metadata.broker.list": bootstrap,
    "compression.codec": "lz4",
    "enable.idempotence": true,
    acks: "all",
    dr_cb: true,
  } as rdkafka.ProducerGlobalConfig);
  await new Promise<void>((resolve, reject) => {
    producer.once("ready", () => resolve());
    producer.once("event.error", reject);
    producer.connect();
  });
  let pending = messages.length;
  const acked = new Promise<void>((resolve, reject) => {
    if (pending === 0) resolve();
    producer.on("delivery-report", (err) => {
      if (err) reject(err);
      else if (--pending === 0) resolve();
    });
  });
  producer.setPollInterval(50);
  for (const m of messages) producer.produce(topic, 0, Buffer.from(m.value), m.key);
  await acked;
  await new Promise<void>((resolve) => producer.disconnect(() => resolve()));
}

export interface ConsumedMessage {
  offset: number;
  value: Buffer;
  /** Broker timestamp (LogAppendTime on the bench's output topics). */
  timestamp: number;
}

/**
 * The reader's fetch and prefetch sizes: twice librdkafka's default fetch per partition (1 MB),
 * so that fewer round trips leave the reader waiting on the broker, and a prefetch queue bounded
 * at 16 MB (default 64 MB) so that a reader, of which the audit runs one per core, stays light.
 * A full queue makes librdkafka (≥ 2.1) wait fetch.queue.backoff.ms before it fetches again,
 * 1 s by default: with ~50k records filling 16 MB that held a reader to ~47k records/s at a third
 * of a core; at 1 ms one reads several times faster.
 */
export const READER_SETTINGS = {
  // Only committed outputs count: a row under exactly-once shows nothing of an aborted transaction.
  // librdkafka's default, written out because the audit's verdict on duplicates rests on it.
  "isolation.level": "read_committed",
  "fetch.min.bytes": 65536,
  "fetch.wait.max.ms": 10,
  "max.partition.fetch.bytes": 2 * 1024 * 1024,
  "fetch.max.bytes": 4 * 1024 * 1024,
  "queued.min.messages": 100_000,
  "queued.max.messages.kbytes": 16384,
  "fetch.queue.backoff.ms": 1,
} as const;

/** Up to this many records per consume call (fewer when none comes for the consume timeout, 1 s). */
const READ_BATCH = 5_000;

const EMPTY = Buffer.alloc(0);

/**
 * Reads partition 0 of `topic` from `fromOffset` without a consumer group, handing each batch
 * to `onBatch`, until `stopAt` records have been read, a record at or past `untilOffset` comes
 * (it and those after it are not handed on), or `idleMs` passes with nothing new. Returns how
 * many records it handed on. The next batch is fetched (on libuv's thread pool) while
 * `onBatch` works on this one. It reads committed records only, unless `isolation` says otherwise
 * (a test that shows what an aborted transaction left in the log).
 */
export async function readTopic(
  bootstrap: string,
  topic: string,
  onBatch: (batch: ConsumedMessage[]) => void,
  opts: { fromOffset?: number; stopAt?: number; untilOffset?: number; idleMs?: number; timeoutMs?: number; isolation?: "read_uncommitted" } = {},
): Promise<number> {
  const settings = { ...READER_SETTINGS, ...(opts.isolation ? { "isolation.level": opts.isolation } : {}) };
  const consumer = new rdkafka.KafkaConsumer(
    { "metadata.broker.list": bootstrap, "group.id": "bench-reader", "enable.auto.commit": false, ...settings } as rdkafka.ConsumerGlobalConfig,
    {},
  );
  await new Promise<void>((resolve, reject) => consumer.connect({}, (err) => (err ? reject(err) : resolve())));
  consumer.assign([{ topic, partition: 0, offset: opts.fromOffset ?? 0 }]);
  const idleMs = opts.idleMs ?? 5_000;
  const deadline = Date.now() + (opts.timeoutMs ?? 600_000);
  const untilOffset = opts.untilOffset ?? Number.POSITIVE_INFINITY;
  let read = 0;
  let passedEnd = false;
  let lastProgress = Date.now();
  const goOn = (): boolean =>
    !passedEnd && Date.now() < deadline && Date.now() - lastProgress < idleMs && (opts.stopAt === undefined || read < opts.stopAt);
  let next: Promise<rdkafka.Message[]> | undefined = goOn() ? consumeBatch(consumer) : undefined;
  try {
    while (next) {
      const fetched = await next;
      const batch = beforeOffset(fetched, untilOffset);
      passedEnd = batch.length < fetched.length;
      if (batch.length > 0) {
        lastProgress = Date.now();
        read += batch.length;
      }
      next = goOn() ? consumeBatch(consumer) : undefined;
      if (batch.length > 0) onBatch(asConsumed(batch));
    }
  } finally {
    // A call still in flight (onBatch threw) must end before the consumer closes.
    await next?.catch(() => undefined);
    await new Promise<void>((resolve) => consumer.disconnect(() => resolve()));
  }
  return read;
}

/** The batch's records before `untilOffset` (offsets ascend within a partition). */
export function beforeOffset<T extends { offset: number }>(batch: T[], untilOffset: number): T[] {
  const last = batch[batch.length - 1];
  if (last === undefined || last.offset < untilOffset) return batch;
  return batch.slice(0, batch.findIndex((m) => m.offset >= untilOffset));
}

function consumeBatch(consumer: rdkafka.KafkaConsumer): Promise<rdkafka.Message[]> {
  return new Promise((resolve, reject) => consumer.consume(READ_BATCH, (err, msgs) => (err ? reject(err) : resolve(msgs))));
}

/** The binding's messages already carry offset, value and timestamp: filled in place rather than copied. */
function asConsumed(batch: rdkafka.Message[]): ConsumedMessage[] {
  for (const m of batch) {
    if (!m.value) m.value = EMPTY;
    if (m.timestamp === undefined) m.timestamp = 0;
  }
  return batch as ConsumedMessage[];
}
