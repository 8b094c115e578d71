/**
 * Quix Streams: pure Python over librdkafka, one StreamingDataFrame scoring record by record
 * (the framework has no batching primitive, so one PyTorch forward per record).
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { benchAppEnv, runningApp, startReadyApp, type Preparation, type PrepareContext, type Product, type RunContext, type RunningProduct } from "@bench/core";
import { checkModelLoads, quixPythonEnv, quixVersions } from "./pins.ts";

const APP = fileURLToPath(new URL("../app/score.py", import.meta.url));
/** First start imports torch and checks the model card; a loaded 2-core machine is slow. */
const READY_TIMEOUT_MS = 120_000;

/** What start() needs from prepare(): the venv's interpreter. */
interface Found {
  python: string;
}

async function prepare(ctx: PrepareContext): Promise<Preparation<Found>> {
  let python: string;
  try {
    ({ python } = await quixPythonEnv(ctx.cacheDir, ctx.log));
  } catch (error) {
    return { ok: false, reason: `Python environment for quixstreams: ${(error as Error).message}` };
  }
  try {
    await checkModelLoads(python, ctx.modelsDir);
  } catch (error) {
    return { ok: false, reason: `the quix venv cannot load the frozen model (needs Debian's python3-torch): ${(error as Error).message}` };
  }
  return { ok: true, versions: await quixVersions(python), deviations: [], found: { python } };
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
  row: {
    delivery: "at-least-once (idempotent, acks=all; checkpoint commit every 1 s)",
    processing: "row (per-record StreamingDataFrame)",
    engine: "in-process · pure-Python over librdkafka (C client)",
    scaling: "none (one consumer per partition, GIL)",
    decode: "full record (19 of 19 fields, orjson dict)",
  },
  notes: [
    "One eager PyTorch forward PER RECORD: quixstreams' StreamingDataFrame hands the pipeline one record at a time and has no batching primitive. That is the framework's shape, not a bench handicap; every product whose API hands over a batch batches the forward.",
    "Consumer: the seed's librdkafka fetch settings and prefetch queue through consumer_extra_config (quixstreams' own fetch.queue.backoff.ms=100 kept). Stateless: no changelog or repartition topics, and quixstreams may not create topics (auto_create_topics off).",
  ],
  prepare,
  start,
};
