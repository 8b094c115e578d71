/**
 * Quix Streams: pure Python over librdkafka, one StreamingDataFrame scoring record by record
 * (the framework has no batching primitive, so one PyTorch forward per record).
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
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

const APP = fileURLToPath(new URL("../app/main.py", import.meta.url));
/** First start imports torch and checks the model card; a loaded 2-core machine is slow. */
const READY_TIMEOUT_MS = 120_000;

/** What start() needs from prepare(): the venv's interpreter. */
interface Found {
  python: string;
}

async function prepare(ctx: PrepareContext): Promise<Preparation<Found>> {
  const env = await prepareDebianTorchEnv(PYTHON_ROW, ctx);
  if (!env.ok) return env;
  return { ok: true, versions: { ...env.versions, librdkafka: await librdkafkaVersion(env.python) }, deviations: [], found: { python: env.python } };
}

async function start(ctx: RunContext, { python }: Found): Promise<RunningProduct> {
  const proc = await startReadyApp({
    name: "quix",
    command: python,
    args: ["-u", APP],
    // quixstreams keeps its (here empty) state folder under the working directory.
    cwd: ctx.runDir,
    env: benchAppEnv(ctx),
    logFile: join(ctx.runDir, "quix.log"),
    readyTimeoutMs: READY_TIMEOUT_MS,
  });
  ctx.log(`quix consuming ${ctx.inputTopic} as group ${ctx.groupId} (pid ${proc.pid})`);
  return runningApp(proc);
}

export const quix: Product<Found> = {
  id: "quix",
  exactlyOnce: {
    offered: true,
    how: 'processing_guarantee="exactly-once" (a transactional producer; each checkpoint\'s offsets commit in its transaction), given the run\'s ' +
      "transactional.id so that a restart fences the killed instance (Quix's own id is random per start)",
    commits: "every 1 s (commit_interval=1.0, as the row's at-least-once checkpoints, not Quix's default 5 s, so that consumed/s moves every second)",
  },
  served: {
    offered: false,
    why: "not wired yet: its app scores with the kit's RiskScorer in process, one record a call; the kit's scorer_for " +
      "and a tritonclient pin checked against quixstreams' own would serve it, as they serve flink",
  },
  modelCall: { runtime: "torch", records: 1 },
  row: {
    delivery: "at-least-once (idempotent, acks=all; checkpoint commit every 1 s)",
    processing: "row (per-record StreamingDataFrame)",
    engine: "in-process · pure-Python over librdkafka (C client)",
    scaling: "none (one consumer per partition, GIL)",
    decode: "full record (19 of 19 fields, orjson dict)",
  },
  notes: [
    "One eager PyTorch forward PER RECORD: quixstreams' StreamingDataFrame hands the pipeline one record at a time and has no batching primitive. That is " +
      "the framework's shape, not a bench handicap; every product whose API hands over a batch batches the forward.",
    "Consumer: the seed's librdkafka fetch settings and prefetch queue through consumer_extra_config (quixstreams' own fetch.queue.backoff.ms=100 kept). " +
      "Stateless: no changelog or repartition topics, and quixstreams may not create topics (auto_create_topics off).",
  ],
  prepare,
  start,
  prerequisites: debianTorchPrerequisites,
  // A record at a time: well below the other Python rows' knees.
  ci: { rate: 2000 },
};
