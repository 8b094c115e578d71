/**
 * An exactly-once output read to its end. A read-committed reader stops at the partition's last
 * stable offset (LSO): the first offset of the oldest transaction still open. A writer killed
 * mid-transaction leaves one open until the broker aborts it on its timeout, and every record
 * behind it, committed or not, stays out of a read-committed reader's reach until then. The audit
 * therefore waits until the LSO reaches the log's end (its high watermark), bounded by the
 * transaction timeout, before it reads; an open transaction it met is named (its producer id, its
 * first offset, how many records sit behind it), and one still open after the bound is the cause
 * given for what could not be read, never a loss.
 */
import { join } from "node:path";
import { execa } from "execa";
import { KafkaJS } from "@confluentinc/kafka-javascript";
import { cacheRoot } from "@bench/core";
import { kafkaClasspath } from "../broker/kafka-broker.ts";
import type { OpenTransaction } from "../results/types.ts";

/**
 * transaction.timeout.ms as the rows set it (60 s: librdkafka's and the Java client's default, and
 * flink's setting), plus the broker's check for timed-out transactions
 * (transaction.abort.timed.out.transaction.cleanup.interval.ms, 10 s) and the abort's own write.
 */
export const OPEN_TRANSACTION_BOUND_MS = 60_000 + 10_000 + 10_000;

/** The log's end as a read-uncommitted and as a read-committed reader see it. */
export interface Ends {
  highWatermark: number;
  lastStable: number;
}

/** Who the broker says holds the transaction open: from `kafka-transactions describe-producers`. */
export interface OpenProducer {
  producerId: number;
  firstOffset: number;
}

export interface StableWait {
  ends: (topic: string) => Promise<Ends>;
  describe: (topic: string) => Promise<OpenProducer | undefined>;
  boundMs: number;
  pollMs?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Waits until the LSO passes the end of the output (or the bound runs out). Returns the end the
 * audit may read to (the high watermark once stable, else the LSO) and, when a transaction was
 * open, who held it, from which offset, how many records sat behind it, and whether it ended in time.
 */
export async function awaitStableEnd(topic: string, w: StableWait): Promise<{ readTo: number; open?: OpenTransaction }> {
  const now = w.now ?? Date.now;
  const sleep = w.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const started = now();
  let ends = await w.ends(topic);
  if (ends.lastStable >= ends.highWatermark) return { readTo: ends.highWatermark };
  // Named at once: a transaction that ends while the audit waits is still what held it.
  const holder = await w.describe(topic).catch(() => undefined);
  const firstOffset = holder?.firstOffset ?? ends.lastStable;
  const open: OpenTransaction = {
    ...(holder ? { producerId: holder.producerId } : {}),
    firstOffset,
    recordsBehind: ends.highWatermark - firstOffset,
    ended: false,
    waitedSec: 0,
  };
  while (ends.lastStable < ends.highWatermark && now() - started < w.boundMs) {
    await sleep(w.pollMs ?? 1000);
    ends = await w.ends(topic);
  }
  open.waitedSec = Math.round((now() - started) / 100) / 10;
  open.ended = ends.lastStable >= ends.highWatermark || ends.lastStable > firstOffset;
  if (!open.ended) open.recordsBehind = ends.highWatermark - firstOffset;
  return { readTo: open.ended ? ends.highWatermark : ends.lastStable, open };
}

/** The one sentence a result gives for an open transaction. */
export function describeOpenTransaction(open: OpenTransaction): string {
  const who = `the transaction of producer id ${open.producerId ?? "unknown"} open from offset ${open.firstOffset}`;
  return open.ended
    ? `${who} held ${open.recordsBehind} records from a read-committed reader for ${open.waitedSec} s, until it ended`
    : `${who} was still open after ${open.waitedSec} s, past the transaction timeout: the ${open.recordsBehind} records behind it could not be read ` +
        "(not counted as lost)";
}

/** The two ends through the Kafka admin API's ListOffsets at each isolation level. */
export async function brokerEnds(bootstrap: string): Promise<{ ends: (topic: string) => Promise<Ends>; close: () => Promise<void> }> {
  const admin = new KafkaJS.Kafka({ kafkaJS: { brokers: [bootstrap], logLevel: KafkaJS.logLevel.NOTHING } }).admin();
  await admin.connect();
  const end = async (topic: string, isolationLevel: KafkaJS.IsolationLevel): Promise<number> =>
    Number((await admin.fetchTopicOffsets(topic, { isolationLevel })).find((p) => p.partition === 0)?.high ?? 0);
  return {
    ends: async (topic) => {
      const [highWatermark, lastStable] = await Promise.all([
        end(topic, KafkaJS.IsolationLevel.READ_UNCOMMITTED),
        end(topic, KafkaJS.IsolationLevel.READ_COMMITTED),
      ]);
      return { highWatermark, lastStable };
    },
    close: () => admin.disconnect(),
  };
}

/**
 * The producer holding partition 0's oldest open transaction, from Kafka's own tool (the admin
 * API's DescribeProducers, which neither JavaScript client offers), run on the broker's classpath.
 */
export async function describeProducers(classpath: string, bootstrap: string, topic: string): Promise<OpenProducer | undefined> {
  const { stdout } = await execa(
    "java",
    [
      ...["-cp", classpath, "org.apache.kafka.tools.TransactionsCommand", "--bootstrap-server", bootstrap],
      ...["describe-producers", "--topic", topic, "--partition", "0"],
    ],
    { timeout: 60_000 },
  );
  return oldestOpen(stdout);
}

/** Parses describe-producers' table (a header, then one tab-separated row per producer): the open transaction that started first. */
export function oldestOpen(table: string): OpenProducer | undefined {
  const [header, ...rows] = table.trim().split("\n").map((line) => line.trim().split(/\s+/));
  const id = header?.indexOf("ProducerId") ?? -1;
  const start = header?.indexOf("CurrentTransactionStartOffset") ?? -1;
  if (id < 0 || start < 0) return undefined;
  const open = rows
    .map((r) => ({ producerId: Number(r[id]), firstOffset: Number(r[start]) }))
    .filter((p) => Number.isInteger(p.producerId) && Number.isInteger(p.firstOffset) && p.firstOffset >= 0);
  return open.sort((a, b) => a.firstOffset - b.firstOffset)[0];
}

/** awaitStableEnd against the broker: its two ends, and Kafka's tool on the broker's jars (resolved into the cache) to name the holder. */
export async function stableOutput(bootstrap: string, topic: string, boundMs = OPEN_TRANSACTION_BOUND_MS): Promise<{ readTo: number; open?: OpenTransaction }> {
  const broker = await brokerEnds(bootstrap);
  try {
    return await awaitStableEnd(topic, {
      ends: broker.ends,
      describe: async (t) => describeProducers(await kafkaClasspath(join(cacheRoot(), "kafka"), () => undefined), bootstrap, t),
      boundMs,
    });
  } finally {
    await broker.close().catch(() => undefined);
  }
}
