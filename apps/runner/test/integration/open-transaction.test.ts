/**
 * The exactly-once audit and a transaction left open. The node row's transactional loop (A) is
 * killed with kill -9 while its first transaction holds appended outputs; a second instance (B,
 * another group and so another transactional id, which cannot fence A's) then scores every input
 * record and commits. A's transaction stays open until the broker aborts it on its timeout, and
 * B's committed outputs sit behind it, out of a read-committed reader's reach. The audit must
 * wait for it rather than count them lost, and name it: producer id, first offset, records behind.
 */
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  cacheRoot, FIXTURE_SEED, KafkaAdmin, KAFKA_SETTINGS, killTree, modelsDir, produceMessages, productCacheDir, RecordEncoder, ReferenceModel, repoRoot,
  type Prepared, type Product, type RunContext,
} from "@bench/core";
import { requireBootstrap } from "@bench/core/testing";
import { auditOutputs } from "../../src/run/audit.ts";
import { brokerEnds } from "../../src/run/audit-transaction.ts";
import { discoverProducts } from "../../src/run/discover.ts";

const bootstrap = requireBootstrap();
const RECORDS = 30_000;
const stamp = `${Date.now()}-${process.pid}`;
const topics = { inputTopic: `open-tx-it.${stamp}.in`, outputTopic: `open-tx-it.${stamp}.out` };
const runRoot = mkdtempSync(join(tmpdir(), "open-tx-it-"));

function context(product: Product, name: string): RunContext {
  const runDir = join(runRoot, name);
  const stateDir = join(runDir, "state");
  mkdirSync(stateDir, { recursive: true });
  return {
    ...topics, groupId: `open-tx-it.${stamp}.${name}`, bootstrap, guarantee: "exactly-once", kafka: KAFKA_SETTINGS, parallelism: 1, runDir, stateDir,
    repoRoot: repoRoot(), modelsDir: modelsDir(), cacheDir: productCacheDir(cacheRoot(), product), log: () => undefined,
  };
}

describe("the exactly-once audit and a transaction still open", () => {
  let admin: KafkaAdmin;
  let ends: Awaited<ReturnType<typeof brokerEnds>>;
  let product: Product;
  let prepared: Prepared;

  beforeAll(async () => {
    admin = await KafkaAdmin.connect(bootstrap);
    ends = await brokerEnds(bootstrap);
    product = (await discoverProducts(repoRoot())).find((p) => p.id === "node") as Product;
    const cacheDir = productCacheDir(cacheRoot(), product);
    const preparation = await product.prepare({ repoRoot: repoRoot(), modelsDir: modelsDir(), cacheDir, log: () => undefined });
    if (!preparation.ok) throw new Error(preparation.reason);
    prepared = preparation;
    await admin.createTopics([{ name: topics.inputTopic }, { name: topics.outputTopic }]);
    const encoder = new RecordEncoder(FIXTURE_SEED);
    await produceMessages(bootstrap, topics.inputTopic, Array.from({ length: RECORDS }, (_, seq) => encoder.encode(seq, Date.now())));
  }, 600_000);

  afterAll(async () => {
    await admin?.deleteTopics([topics.inputTopic, topics.outputTopic]).catch(() => undefined);
    await ends?.close();
    await admin?.close();
  });

  it("waits for it instead of counting what sits behind it as lost, and names it", async () => {
    expect(product.exactlyOnce?.offered).toBe(true);
    const a = await product.start(context(product, "a"), prepared.found);
    let held: { highWatermark: number; lastStable: number } | undefined;
    for (const deadline = Date.now() + 120_000; held === undefined && Date.now() < deadline;) {
      const e = await ends.ends(topics.outputTopic);
      if (e.highWatermark > e.lastStable) held = e;
    }
    killTree(a.rootPids());
    await a.exited;
    expect(held).toBeDefined();
    const openFrom = (held as { lastStable: number }).lastStable;

    const b = await product.start(context(product, "b"), prepared.found);
    const groupB = `open-tx-it.${stamp}.b`;
    for (const deadline = Date.now() + 300_000; (await admin.committedOffset(groupB, topics.inputTopic)) < RECORDS && Date.now() < deadline;) {
      await new Promise((r) => setTimeout(r, 500));
    }
    await b.stop();
    expect(await admin.committedOffset(groupB, topics.inputTopic)).toBe(RECORDS);
    // A's transaction still holds the last stable offset: B's committed outputs are behind it.
    const before = await ends.ends(topics.outputTopic);
    expect(before.lastStable).toBe(openFrom);
    expect(before.highWatermark).toBeGreaterThan(openFrom + RECORDS - 1);

    const reference = await ReferenceModel.load(modelsDir());
    const delivery = await auditOutputs({
      bootstrap, outputTopic: topics.outputTopic, produced: RECORDS, outputEnd: await admin.endOffset(topics.outputTopic), seed: FIXTURE_SEED, reference,
      passthrough: false, tolerance: reference.card.tolerance, windowMs: [0, Date.now()], transactional: true, readers: 1,
    });
    expect(delivery.lost).toBe(0);
    expect(delivery.distinctOutputs).toBe(RECORDS);
    expect(delivery.unreadBehindOpenTransaction).toBeUndefined();
    expect(delivery.openTransaction).toEqual({
      producerId: expect.any(Number), firstOffset: openFrom, recordsBehind: before.highWatermark - openFrom, ended: true, waitedSec: expect.any(Number),
    });
  }, 900_000);
});
