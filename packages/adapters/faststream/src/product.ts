/**
 * The faststream row: a FastStream 0.7 app (app/main.py) in a pinned venv over Debian's torch.
 * prepare() builds the venv once into the cache; start() runs the app against the run's topics.
 */
import { join } from "node:path";
import {
  benchAppEnv,
  debianTorchPrerequisites,
  KAFKA_SETTINGS,
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

const fetch = KAFKA_SETTINGS.consumer;
const DEVIATIONS = [
  `aiokafka has no prefetch-queue knobs: the shared fetch numbers are set under aiokafka's names (fetch_min_bytes ${fetch["fetch.min.bytes"]}, ` +
    `fetch_max_wait_ms ${fetch["fetch.wait.max.ms"]}, max_partition_fetch_bytes ${fetch["max.partition.fetch.bytes"]}), queued.max.messages.kbytes / ` +
    `queued.min.messages have no equivalent`,
];

const APP = join(import.meta.dirname, "..", "app", "main.py");
/** First start imports torch and checks the model card's probes: slow on a busy 2-core box. */
const READY_TIMEOUT_MS = 120_000;
/** Above FastStream's own graceful_timeout (15 s) so a clean stop can finish its batch. */
const STOP_GRACE_MS = 20_000;

async function prepare(ctx: PrepareContext): Promise<Preparation<Found>> {
  const env = await prepareDebianTorchEnv(PYTHON_ROW, ctx);
  return env.ok ? { ok: true, versions: env.versions, deviations: DEVIATIONS, found: { python: env.python } } : env;
}

async function start(ctx: RunContext, { python }: Found): Promise<RunningProduct> {
  const app = await startReadyApp({
    name: "faststream",
    command: python,
    args: [APP],
    cwd: join(import.meta.dirname, "..", "app"),
    env: benchAppEnv(ctx),
    logFile: join(ctx.runDir, "faststream.log"),
    readyTimeoutMs: READY_TIMEOUT_MS,
  });
  return runningApp(app, { stopGraceMs: STOP_GRACE_MS });
}

export const faststream: Product<Found> = {
  id: "faststream",
  exactlyOnce: {
    offered: false,
    why: "FastStream has no Kafka transaction API (its maintainers, faststream issue #2512: \"we don't currently support Kafka transactions yet\")",
  },
  served: {
    offered: false,
    why: "not wired yet: its subscriber scores with the kit's RiskScorer in process; the kit's scorer_for and a " +
      "tritonclient pin checked against faststream's own would serve it, as they serve flink",
  },
  modelCall: { runtime: "torch", records: 10_000 },
  row: {
    delivery: "at-least-once (idempotent, acks=all; per batch: every output's ack awaited, then AckPolicy.ACK commits after the handler)",
    processing: "batch I/O (batch=True, ≤10k records per call), per-row compute (one torch forward per batch)",
    engine: "in-process · pure-Python async (aiokafka; orjson JSON codec)",
    scaling: "none (one async consumer)",
    decode: "full record (19 of 19 fields, orjson dict)",
  },
  notes: [
    "FastStream's batch subscriber hands the handler a list: the forward is one eager PyTorch call per batch (torch limited to 1 thread), but normalising " +
      "and publishing are a pure-Python loop, one publish per record (no_confirm: handed to aiokafka, not awaited per record; the handler awaits the " +
      "batch's acks together before it returns). The batch's offsets are committed after the handler returns (AckPolicy.ACK; the framework's default " +
      "ACK_FIRST would be at-most-once). FastStream adds content-type and correlation_id headers to every output message.",
  ],
  prepare,
  start,
  prerequisites: debianTorchPrerequisites,
  ci: { rate: 5000 },
};
