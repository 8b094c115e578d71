/**
 * The node reference product: librdkafka in, onnxruntime-node once per batch, librdkafka out.
 * At-least-once without a JS callback per record: a batch's offset is committed only after a
 * producer flush that began after the batch was produced has completed. Exactly-once: each batch
 * is one Kafka transaction holding its outputs and the consumer's positions after it
 * (transactions.ts), and no consumer commit of its own.
 *
 * Env: BENCH_BOOTSTRAP, BENCH_INPUT_TOPIC, BENCH_OUTPUT_TOPIC, BENCH_GROUP_ID, BENCH_MODELS_DIR,
 * BENCH_KAFKA_CONSUMER / BENCH_KAFKA_PRODUCER (the shared client settings, JSON),
 * BENCH_NODE_MODE = "model" | "passthrough", BENCH_GUARANTEE (at-least-once when unset) and, under
 * exactly-once, BENCH_TRANSACTIONAL_ID; BENCH_MODEL_SERVER (served: the model server's gRPC address,
 * called once per batch in place of onnxruntime-node, @bench/core/served).
 */
import rdkafka from "@confluentinc/kafka-javascript";
import { METRIC_MAXIMA, parseGuarantee, ReferenceModel } from "@bench/core";
import { decodeRecord, encodeOutput } from "./record.ts";
import { TransactionError, Transactions } from "./transactions.ts";
import { ServedModel } from "@bench/core/served";

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};
const bootstrap = env("BENCH_BOOTSTRAP");
const inputTopic = env("BENCH_INPUT_TOPIC");
const outputTopic = env("BENCH_OUTPUT_TOPIC");
const passthrough = process.env.BENCH_NODE_MODE === "passthrough";
const exactlyOnce = parseGuarantee(process.env.BENCH_GUARANTEE ?? "at-least-once") === "exactly-once";
const BATCH = 10_000;

let stopping = false;
// Served (BENCH_MODEL_SERVER): each batch is one call to the model server instead of onnxruntime-node.
const modelServer = process.env.BENCH_MODEL_SERVER;
const model: { score(features: Float32Array): Promise<number[]> } | undefined = passthrough
  ? undefined
  : modelServer
    ? await ServedModel.connect(modelServer, env("BENCH_MODELS_DIR"), () => stopping)
    : await ReferenceModel.load(env("BENCH_MODELS_DIR"));

// debug=conf: librdkafka prints each client's effective configuration once, at creation, into
// the run's log, where the integration test holds it against the shared settings.
const shown = { debug: "conf", event_cb: true };
const showConf = (client: rdkafka.Client<string>): void => void client.on("event.log", (line) => console.log(`${line.fac} ${line.message}`));
const consumer = new rdkafka.KafkaConsumer(
  {
    ...(JSON.parse(env("BENCH_KAFKA_CONSUMER")) as object),
    ...shown,
    "metadata.broker.list": bootstrap,
    "group.id": env("BENCH_GROUP_ID"),
    "enable.auto.commit": false,
  } as rdkafka.ConsumerGlobalConfig,
  { "auto.offset.reset": "earliest" },
);
const producer = new rdkafka.Producer({
  ...(JSON.parse(env("BENCH_KAFKA_PRODUCER")) as object),
  ...(exactlyOnce ? { "transactional.id": env("BENCH_TRANSACTIONAL_ID") } : {}),
  ...shown,
  "metadata.broker.list": bootstrap,
  "queue.buffering.max.messages": 1_000_000,
  dr_cb: false,
} as rdkafka.ProducerGlobalConfig);
showConf(consumer);
showConf(producer);

await new Promise<void>((resolve, reject) => producer.connect({}, (err) => (err ? reject(err) : resolve())));
await new Promise<void>((resolve, reject) => consumer.connect({}, (err) => (err ? reject(err) : resolve())));
producer.setPollInterval(100);
consumer.subscribe([inputTopic]);
consumer.setDefaultConsumeTimeout(100);
// Return what the prefetch queue holds now instead of waiting until a batch is full: a full
// 10k batch takes half a second to arrive at 20k/s, and that wait would be latency. The method
// is untyped (marked private) but it is what the library's own KafkaJS-style consumer sets.
(consumer as unknown as { setDefaultIsTimeoutOnlyForFirstMessage(on: boolean): void }).setDefaultIsTimeoutOnlyForFirstMessage(true);

const transactions = exactlyOnce ? new Transactions(producer, consumer, () => stopping) : undefined;
let flushing = false;
let producedUpTo = -1; // highest input offset whose output was handed to the producer

function commitAfterFlush(): void {
  if (flushing || producedUpTo < 0) return;
  flushing = true;
  const upTo = producedUpTo;
  producer.flush(30_000, (err) => {
    flushing = false;
    // Once the clean stop has begun it commits for itself; a commit here could race the disconnect.
    if (stopping) return;
    if (err) {
      console.error(`flush failed, not committing: ${err.message}`);
      return;
    }
    consumer.commit({ topic: inputTopic, partition: 0, offset: upTo + 1 });
  });
}

function consume(): Promise<rdkafka.Message[]> {
  return new Promise((resolve, reject) => consumer.consume(BATCH, (err, msgs) => (err ? reject(err) : resolve(msgs))));
}

interface Scorable {
  message: rdkafka.Message;
  eventId: string;
  tsMs: number;
}

let skipped = 0;

/**
 * Reads one record's fields (JSON.parse of the UTF-8 value), or skips it (counted, logged) when
 * it is malformed: one bad record costs that record, never the batch or the process.
 */
function decode(message: rdkafka.Message, features: Float32Array, row: number): Scorable | undefined {
  const clip = (x: number): number => (x < 0 ? 0 : x > 1 ? 1 : x);
  try {
    const { eventId, tsMs, metrics } = decodeRecord(message.value);
    features[row * 4] = clip(metrics[0] / METRIC_MAXIMA.latency_ms);
    features[row * 4 + 1] = clip(metrics[1] / METRIC_MAXIMA.queue_depth);
    features[row * 4 + 2] = clip(metrics[2] / METRIC_MAXIMA.cpu_usage);
    features[row * 4 + 3] = clip(metrics[3] / METRIC_MAXIMA.error_count);
    return { message, eventId, tsMs };
  } catch (error) {
    skipped++;
    console.error(`skipped record at offset ${message.offset}: ${(error as Error).message} (skipped ${skipped})`);
    return undefined;
  }
}

async function score(batch: readonly rdkafka.Message[]): Promise<{ good: Scorable[]; risks: number[] }> {
  const features = new Float32Array(batch.length * 4);
  const good: Scorable[] = [];
  for (const message of batch) {
    const row = decode(message, features, good.length);
    if (row) good.push(row);
  }
  const risks = good.length > 0 ? await (model as NonNullable<typeof model>).score(features.subarray(0, good.length * 4)) : [];
  return { good, risks };
}

/**
 * The batch scored now; the returned function hands its outputs to the producer. Exactly-once
 * scores before its transaction begins, so the transaction stays open only for producing and committing.
 */
async function outputsOf(batch: readonly rdkafka.Message[]): Promise<() => void> {
  if (passthrough) {
    return () => {
      for (const m of batch) producer.produce(outputTopic, 0, m.value, m.key);
    };
  }
  const { good, risks } = await score(batch);
  return () => good.forEach(({ message, eventId, tsMs }, i) => producer.produce(outputTopic, 0, encodeOutput(eventId, tsMs, risks[i] as number), message.key));
}

/** The at-least-once loop: produce each batch, commit what a completed flush has delivered. */
async function atLeastOnce(): Promise<void> {
  while (!stopping) {
    const batch = await consume();
    if (batch.length === 0) {
      commitAfterFlush();
      continue;
    }
    (await outputsOf(batch))();
    producedUpTo = (batch[batch.length - 1] as rdkafka.Message).offset;
    commitAfterFlush();
  }
  // Clean stop: a flush in flight ends first, then everything produced is delivered and committed.
  while (flushing) await new Promise((resolve) => setTimeout(resolve, 10));
  await new Promise<void>((resolve) => producer.flush(30_000, () => resolve()));
  if (producedUpTo < 0) return;
  try {
    consumer.commitSync({ topic: inputTopic, partition: 0, offset: producedUpTo + 1 });
  } catch (error) {
    // Not fatal for delivery (the records are redone from the last commit), but a stop that
    // could not commit is not a clean one: say why and exit non-zero.
    console.error(`final commit failed: ${(error as Error).message}`);
    process.exitCode = 1;
  }
}

/**
 * A transaction that failed for good (fenced by a newer instance, not ended in time, or stuck in
 * librdkafka): the app ends non-zero with the reason. Its next start's initTransactions fences this
 * one, aborts what it left open, and goes on from the last committed batch.
 */
async function fatal(error: unknown): Promise<never> {
  console.error(`exactly-once: ${(error as Error).message}`);
  // Leaving the group lets the next start take the partition now rather than after this member's session times out.
  await Promise.race([new Promise<void>((resolve) => consumer.disconnect(() => resolve())), new Promise((resolve) => setTimeout(resolve, 5_000))]);
  // process.exit waits for libuv's threads, and a stuck call holds one forever.
  if (error instanceof TransactionError && error.stuck) process.kill(process.pid, "SIGKILL");
  process.exit(1);
}

/**
 * The exactly-once loop: one transaction per batch, ended (committed, or aborted and read again)
 * before the next consume, so a stop never leaves one open and needs no commit of its own.
 */
async function transactional(txn: Transactions): Promise<void> {
  while (!stopping) {
    const batch = await consume();
    if (batch.length > 0) await txn.run(batch, await outputsOf(batch)).catch(fatal);
  }
}

process.on("SIGTERM", () => (stopping = true));
process.on("SIGINT", () => (stopping = true));
if (transactions) await transactions.init().catch(fatal);
const servedBy = modelServer && !passthrough ? ` served by ${modelServer}` : "";
console.log(`BENCH_READY node ${passthrough ? "passthrough" : "model"}${exactlyOnce ? " exactly-once" : ""} consuming ${inputTopic}${servedBy}`);

await (transactions ? transactional(transactions) : atLeastOnce());
await new Promise<void>((resolve) => consumer.disconnect(() => resolve()));
await new Promise<void>((resolve) => producer.disconnect(() => resolve()));
