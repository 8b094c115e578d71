/**
 * Served against the real broker and a real model server: the bench's own (KServe's Python model
 * server hosting the frozen model's ONNX export, started as the bench starts it). Each served row
 * (the plain confluent-kafka loop, node, kafka-streams, flink's UDF) passes the verification gate (every score held to
 * the reference within the card's tolerance); then, working through a backlog, it outlives a kill -9 of the server
 * and the server's restart: while the server is down the row commits nothing, and once it is back
 * every record comes out (0 lost, read by a recount of both topics).
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  cacheRoot,
  FIXTURE_SEED,
  KafkaAdmin,
  KAFKA_SETTINGS,
  ModelServer,
  modelsDir,
  prepareModelServer,
  produceMessages,
  productCacheDir,
  RecordEncoder,
  repoRoot,
  type Prepared,
  type Product,
  type RunningProduct,
} from "@bench/core";
import { expectGatePassed, requireBootstrap, runLogs, scoreFixturesThroughProduct } from "@bench/core/testing";
import { discoverProducts } from "../../src/run/discover.ts";
import { recount } from "./recount.ts";

const bootstrap = requireBootstrap();
/**
 * A backlog the kill lands in the middle of: several of the batching rows' batches (10,000 records; flink's Arrow batches 1,000);
 * kafka-streams calls the server once a record, so a smaller one lasts as long.
 */
const BACKLOG: Readonly<Record<string, number>> = {
  "confluent-kafka": 400_000, node: 400_000, "kafka-streams": 40_000, flink: 400_000,
};
/** How long the server stays down: several of the row's retries, well inside its outage limit. */
const DOWN_MS = 5_000;

const runRoot = mkdtempSync(join(tmpdir(), "served-it-"));
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await sleep(100);
  }
  return false;
}

describe.each(["confluent-kafka", "node", "kafka-streams", "flink"])("served: the %s row against the bench's model server", (id) => {
  let server: ModelServer;
  let product: Product;
  let prepared: Prepared;
  let admin: KafkaAdmin;

  beforeAll(async () => {
    const log = (line: string): void => console.log(line);
    const serverPrep = await prepareModelServer({ cacheRoot: cacheRoot(), modelsDir: modelsDir(), log });
    if (!serverPrep.ok) throw new Error(serverPrep.reason);
    server = new ModelServer({ python: serverPrep.python, modelsDir: modelsDir(), model: "risk_mlp", logFile: join(runRoot, "model-server.log") });
    await server.start();
    product = (await discoverProducts(repoRoot())).find((p) => p.id === id) as Product;
    const preparation = await product.prepare({ repoRoot: repoRoot(), modelsDir: modelsDir(), cacheDir: productCacheDir(cacheRoot(), product), log });
    if (!preparation.ok) throw new Error(preparation.reason);
    prepared = preparation;
    admin = await KafkaAdmin.connect(bootstrap);
  }, 900_000);

  afterAll(async () => {
    await server?.stop();
    await admin?.close();
  });

  it("offers served", () => {
    expect(product.served?.offered).toBe(true);
  });

  it("passes the gate served: every fixture scored by the server with the reference risk", async () => {
    const run = await scoreFixturesThroughProduct(product, {
      bootstrap, cacheDir: productCacheDir(cacheRoot(), product), topicPrefix: `served-it-${id}`, modelServer: server.grpcTarget, keepRunning: true,
    });
    expect(run.running.logTail(2000)).toMatch(new RegExp(`BENCH_READY .* served by ${server.grpcTarget.replace(/\./g, "\\.")}`));
    expectGatePassed(run);
    expect((await run.stop()).exit).toEqual({ code: 0, signal: null });
  }, 400_000);

  it("refuses to start against a server that does not host the bench's model, with the server's reason", async () => {
    const name = `served-it.${id}.other-model.${Date.now()}-${process.pid}`;
    const before = process.env.BENCH_MODEL;
    // The row asks for the heavier model by its card; the server hosts the seed's only.
    process.env.BENCH_MODEL = "risk_mlp_wide";
    try {
      const started = product.start({
        inputTopic: `${name}.in`, outputTopic: `${name}.out`, groupId: name, bootstrap, guarantee: "at-least-once", kafka: KAFKA_SETTINGS,
        parallelism: 1, runDir: runRoot, stateDir: runRoot, repoRoot: repoRoot(), modelsDir: modelsDir(),
        cacheDir: productCacheDir(cacheRoot(), product), log: () => undefined, modelServer: server.grpcTarget,
      }, prepared.found);
      await expect(started).rejects.toThrow(/the model server at \S+ refused the batch: .*risk_mlp_wide/);
    } finally {
      if (before === undefined) delete process.env.BENCH_MODEL;
      else process.env.BENCH_MODEL = before;
    }
  }, 300_000);

  it("outlives a kill -9 of the server and its restart: nothing committed while it is down, 0 lost", async () => {
    const stamp = `${Date.now()}-${process.pid}`;
    const name = `served-it.${id}.${stamp}`;
    const topics = { inputTopic: `${name}.in`, outputTopic: `${name}.out`, groupId: name };
    const records = BACKLOG[id];
    if (records === undefined) throw new Error(`no backlog is set for ${id}`);
    await admin.createTopics([{ name: topics.inputTopic }, { name: topics.outputTopic }]);
    const encoder = new RecordEncoder(FIXTURE_SEED);
    // In parts the client's producer queue holds (100,000 messages).
    for (let first = 0; first < records; first += 50_000) {
      const part = Array.from({ length: Math.min(50_000, records - first) }, (_, n) => encoder.encode(first + n, Date.now()));
      await produceMessages(bootstrap, topics.inputTopic, part);
    }
    const committed = (): Promise<number> => admin.committedOffset(topics.groupId, topics.inputTopic);
    // A folder of its own, so the logs read below are this run's alone.
    const runDir = mkdtempSync(join(runRoot, `${id}-kill-`));
    let running: RunningProduct | undefined;
    try {
      running = await product.start({
        ...topics, bootstrap, guarantee: "at-least-once", kafka: KAFKA_SETTINGS, parallelism: 1, runDir, stateDir: runDir,
        repoRoot: repoRoot(), modelsDir: modelsDir(), cacheDir: productCacheDir(cacheRoot(), product), log: () => undefined,
        modelServer: server.grpcTarget,
      }, prepared.found);
      let exited = false;
      void running.exited.then(() => (exited = true));
      expect(await until(async () => (await committed()) > 0, 120_000)).toBe(true);

      await server.kill();
      const atKill = await committed();
      await sleep(DOWN_MS);
      // A batch whose call was answered before the kill may still commit; nothing after it can.
      const whileDown = await committed();
      await sleep(DOWN_MS);
      expect(await committed()).toBe(whileDown);
      expect(exited).toBe(false);
      console.log(`served ${id}: server killed at committed ${atKill} of ${records}; ${whileDown} while it was down`);
      expect(whileDown).toBeLessThan(records);

      await server.start();
      expect(await until(async () => (await committed()) >= records, 300_000)).toBe(true);
      expect(exited).toBe(false);
      const log = runLogs(runDir);
      expect(log).toMatch(/model server at \S+ not answering/);
      expect(log).toMatch(/model server at \S+ answering again after/);
    } finally {
      await running?.stop();
    }
    const { lost } = await recount(bootstrap, topics, admin);
    expect(lost).toBe(0);
    await admin.deleteTopics([topics.inputTopic, topics.outputTopic]).catch(() => undefined);
  }, 900_000);
});
