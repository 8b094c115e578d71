/**
 * The confluent-kafka row: a plain consume-score-produce loop (app/main.py) on confluent-kafka's
 * Consumer and Producer, no framework, in a pinned venv over Debian's torch. It is the floor
 * of the Python rows: the page subtracts its µs per record from theirs ("what the framework adds").
 */
import { join } from "node:path";
import {
  benchAppEnv,
  librdkafkaVersion,
  debianTorchPrerequisites,
  prepareDebianTorchEnv,
  runningApp,
  startReadyApp,
  type Preparation,
  type PrepareContext,
  type Product,
  type RunContext,
  type RunningProduct,
} from "@bench/core";
import { PYTHON_ROW } from "./pins.ts";

/** What start() needs from prepare(): the venv's interpreter. */
interface Found {
  python: string;
}

const APP = join(import.meta.dirname, "..", "app", "main.py");
/** First start imports torch and checks the model card's probes: slow on a busy 2-core box. */
const READY_TIMEOUT_MS = 120_000;

async function prepare(ctx: PrepareContext): Promise<Preparation<Found>> {
  const env = await prepareDebianTorchEnv(PYTHON_ROW, ctx);
  if (!env.ok) return env;
  // Every shared setting goes to librdkafka as it is: no deviation.
  return { ok: true, versions: { ...env.versions, librdkafka: await librdkafkaVersion(env.python) }, deviations: [], found: { python: env.python } };
}

async function start(ctx: RunContext, { python }: Found): Promise<RunningProduct> {
  const app = await startReadyApp({
    name: "confluent-kafka",
    command: python,
    args: [APP],
    cwd: join(import.meta.dirname, "..", "app"),
    env: benchAppEnv(ctx),
    logFile: join(ctx.runDir, "confluent-kafka.log"),
    readyTimeoutMs: READY_TIMEOUT_MS,
  });
  ctx.log(`confluent-kafka consuming ${ctx.inputTopic} as group ${ctx.groupId} (pid ${app.pid})`);
  // The loop stops within one batch wait (100 ms) plus a flush and a commit: the default grace is ample.
  return runningApp(app);
}

export const confluentKafka: Product<Found> = {
  id: "confluent-kafka",
  exactlyOnce: {
    offered: true,
    how: "a transactional loop on confluent-kafka's producer (transactional.id per run; per batch begin_transaction, produce, " +
      "send_offsets_to_transaction, commit_transaction)",
    commits: "a transaction per batch (≤10k records or 100 ms)",
  },
  served: {
    offered: true,
    how: "one Open Inference Protocol (KServe v2) gRPC infer call per batch (≤10k records: the batch it scores embedded), with tritonclient's gRPC " +
      "client; the batch is held and nothing committed while the server is down",
  },
  modelCall: { runtime: "torch", records: 10_000 },
  row: {
    delivery: "at-least-once (idempotent, acks=all; per batch: producer.flush() until every output is acknowledged, then a synchronous commit)",
    processing: "batch (consume() of ≤10k records or 100 ms), one torch forward per batch, one produce() per record",
    engine: "in-process · plain Python loop over librdkafka (confluent-kafka C client), no framework",
    scaling: "none (one consumer, one thread, GIL)",
    decode: "full record (19 of 19 fields, orjson dict)",
  },
  notes: [
    "The Python floor: no framework, only what a Python app pays anyway to read from Kafka, score and write back (confluent-kafka over librdkafka, orjson, " +
      "one torch forward per batch). The page's 'what the framework adds' subtracts this row's µs per record from each Python row's. It is written as a " +
      "competent user writes it, not tuned: a synchronous loop that waits for each batch's outputs to be acknowledged (flush) and then for the commit before " +
      "it reads the next batch.",
    "Per record: orjson parses it whole (the JSON library faststream and quix use, so the difference is not a JSON library's) and the kit's record check " +
      "judges it (a record that cannot be scored is skipped, counted and logged, and its offset is committed with the batch); then, after the batch's " +
      "forward, orjson encodes its output record and one produce() sends it, keyed by the record's partition_key, with no per-message callback. Per batch: " +
      "the four features as one tensor operation and one torch forward (the kit's RiskScorer). The producer reports failed deliveries only " +
      "(delivery.report.only.error) to one callback; a failure stops the app before the batch is committed.",
    "Consumed/s is the group's committed offset, moved once per batch. A kill -9 replays the uncommitted batch in hand, whose outputs may already be in the " +
      "output topic: duplicates are possible (at most one batch), losses are not.",
  ],
  prepare,
  start,
  prerequisites: debianTorchPrerequisites,
  // A commit only follows a flush with no failed delivery report (rd_kafka_flush waits until all
  // outstanding produce requests are completed, serving the reports: read in librdkafka's
  // header): a kill -9 loses nothing, so lossUnderKill stays absent (`--faults` checks it).
  ci: { rate: 5000 },
  floorFor: "python",
};
