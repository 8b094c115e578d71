/**
 * Exactly-once against the real broker. The plain confluent-kafka row's transactional loop is
 * killed with kill -9 at moments when a transaction of its holds outputs the broker has appended
 * but not committed (the output's high watermark past its last stable offset), started again on
 * the same topics, group and transactional id, and left to finish the backlog. Read committed,
 * every record came out exactly once; read uncommitted, the killed transactions' outputs are in
 * the log too, so the guarantee is what kept them from a reader.
 */
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { KafkaJS } from "@confluentinc/kafka-javascript";
import {
  cacheRoot,
  FIXTURE_SEED,
  KafkaAdmin,
  KAFKA_SETTINGS,
  modelsDir,
  killTree,
  produceMessages,
  productCacheDir,
  readTopic,
  RecordEncoder,
  repoRoot,
  seqOfEventId,
  type Prepared,
  type Product,
  type RunContext,
} from "@bench/core";
import { requireBootstrap } from "@bench/core/testing";
import { discoverProducts } from "../../src/run/discover.ts";

const bootstrap = requireBootstrap();
/** A backlog the row works through in batches of up to 10,000, each its own transaction. */
const RECORDS = 60_000;
/** kill -9s, each while a transaction holds appended outputs: one that lands just after its commit still leaves the others. */
const KILLS = 3;

const stamp = `${Date.now()}-${process.pid}`;
const topics = { inputTopic: `eo-it.${stamp}.in`, outputTopic: `eo-it.${stamp}.out`, groupId: `eo-it.${stamp}` };
const runRoot = mkdtempSync(join(tmpdir(), "eo-it-"));

function context(product: Product, start: number): RunContext {
  const runDir = join(runRoot, `start-${start}`);
  const stateDir = join(runRoot, "state");
  for (const dir of [runDir, stateDir]) mkdirSync(dir, { recursive: true });
  return {
    ...topics, bootstrap, guarantee: "exactly-once", kafka: KAFKA_SETTINGS, parallelism: 1, runDir, stateDir,
    repoRoot: repoRoot(), modelsDir: modelsDir(), cacheDir: productCacheDir(cacheRoot(), product), log: () => undefined,
  };
}

/** Resolves once the output holds appended records no transaction has committed yet; false if none came within the time. */
async function transactionOpen(admin: KafkaJS.Admin, timeoutMs: number): Promise<boolean> {
  const end = (isolationLevel: KafkaJS.IsolationLevel) => admin.fetchTopicOffsets(topics.outputTopic, { isolationLevel }).then((o) => Number(o[0]?.high));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const [uncommitted, committed] = await Promise.all([end(KafkaJS.IsolationLevel.READ_UNCOMMITTED), end(KafkaJS.IsolationLevel.READ_COMMITTED)]);
    if (uncommitted > committed) return true;
  }
  return false;
}

/** Outputs per record as a reader at this isolation level sees them. */
async function outputsPerRecord(isolation?: "read_uncommitted"): Promise<Uint8Array> {
  const counts = new Uint8Array(RECORDS);
  await readTopic(bootstrap, topics.outputTopic, (batch) => {
    for (const m of batch) {
      const seq = seqOfEventId((JSON.parse(m.value.toString("utf8")) as { event_id: string }).event_id);
      if (seq !== undefined && seq < RECORDS) counts[seq] = Math.min(255, (counts[seq] as number) + 1);
    }
  }, { idleMs: 10_000, ...(isolation ? { isolation } : {}) });
  return counts;
}

describe("exactly-once: a transactional row killed with kill -9", () => {
  let admin: KafkaAdmin;
  let offsets: KafkaJS.Admin;
  let product: Product;
  let prepared: Prepared;

  beforeAll(async () => {
    admin = await KafkaAdmin.connect(bootstrap);
    offsets = new KafkaJS.Kafka({ kafkaJS: { brokers: [bootstrap], logLevel: KafkaJS.logLevel.NOTHING } }).admin();
    await offsets.connect();
    product = (await discoverProducts(repoRoot())).find((p) => p.id === "confluent-kafka") as Product;
    const cacheDir = productCacheDir(cacheRoot(), product);
    const preparation = await product.prepare({ repoRoot: repoRoot(), modelsDir: modelsDir(), cacheDir, log: () => undefined });
    if (!preparation.ok) throw new Error(preparation.reason);
    prepared = preparation;
    await admin.createTopics([{ name: topics.inputTopic }, { name: topics.outputTopic }]);
    const encoder = new RecordEncoder(FIXTURE_SEED);
    await produceMessages(bootstrap, topics.inputTopic, Array.from({ length: RECORDS }, (_, seq) => encoder.encode(seq, Date.now())));
  }, 900_000);

  afterAll(async () => {
    await admin?.deleteTopics([topics.inputTopic, topics.outputTopic]).catch(() => undefined);
    await offsets?.disconnect();
    await admin?.close();
  });

  it("delivers every record once read-committed, where a read-uncommitted reader sees the killed transactions' outputs too", async () => {
    expect(product.exactlyOnce?.offered).toBe(true);
    let kills = 0;
    for (let start = 0; kills < KILLS && start < 2 * KILLS; start++) {
      const running = await product.start(context(product, start), prepared.found);
      if (await transactionOpen(offsets, 60_000)) {
        killTree(running.rootPids());
        kills++;
      } else await running.stop();
      await running.exited;
    }
    expect(kills).toBe(KILLS);

    const last = await product.start(context(product, 2 * KILLS), prepared.found);
    const deadline = Date.now() + 300_000;
    while ((await admin.committedOffset(topics.groupId, topics.inputTopic)) < RECORDS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 500));
    await last.stop();
    expect(await admin.committedOffset(topics.groupId, topics.inputTopic)).toBe(RECORDS);

    const committed = await outputsPerRecord();
    expect(committed.filter((c) => c !== 1).length).toBe(0);
    const uncommitted = await outputsPerRecord("read_uncommitted");
    const aborted = uncommitted.reduce((sum, c) => sum + c, 0) - RECORDS;
    console.log(`exactly-once: ${kills} kill -9s; read uncommitted, ${aborted} outputs of aborted transactions beside the ${RECORDS} committed`);
    expect(aborted).toBeGreaterThan(0);
  }, 900_000);
});
