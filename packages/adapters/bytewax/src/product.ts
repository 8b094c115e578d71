/**
 * Bytewax: a dataflow on Bytewax's Rust (Timely Dataflow) runtime with Python steps, one
 * worker, its Kafka connectors over confluent-kafka (librdkafka), in a pinned venv over Debian's
 * torch. prepare() builds the venv once into the cache; start() runs app/main.py with Bytewax's
 * own CLI (`python -m bytewax.run`) and recovery on.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import {
  benchAppEnv,
  librdkafkaVersion,
  counterFile,
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
import { COUNTER_FILE, RECOVERY_DIR, recoveryInitialised } from "./state.ts";

const APP = join(import.meta.dirname, "..", "app", "main.py");
/** First start imports torch and checks the model card's probes: slow on a busy 2-core box. */
const READY_TIMEOUT_MS = 120_000;
/** SIGTERM ends the input at the next poll; Bytewax then snapshots and the sink flushes. */
const STOP_GRACE_MS = 20_000;
/** Seconds between recovery snapshots (`-s`): how far back a restart may replay. */
export const SNAPSHOT_INTERVAL_S = 1;

/** What start() needs from prepare(): the venv's interpreter. */
interface Found {
  python: string;
}


const DEVIATIONS = [
  `KafkaSink flushes its producer after every batch it writes (librdkafka's flush sends what is queued at once and waits for every acknowledgement), so ` +
    `linger.ms=${KAFKA_SETTINGS.producer["linger.ms"]} batches only within one Bytewax batch, never across batches`,
  "KafkaSource adds statistics.interval.ms=1000 with a Python stats callback (it parses librdkafka's statistics JSON once a second for its lag gauge), " +
    "group.id BYTEWAX_IGNORED and enable.auto.commit=false: it assigns the partition itself and commits no offsets",
];

/** The command line Bytewax's own CLI runs the dataflow with: one worker, recovery on. */
export function bytewaxRunArgs(recoveryDir: string): string[] {
  return [
    "-m",
    "bytewax.run",
    `${APP}:build_flow()`,
    "--workers-per-process",
    "1",
    "--recovery-directory",
    recoveryDir,
    "--snapshot-interval",
    String(SNAPSHOT_INTERVAL_S),
    "--backup-interval",
    "0",
  ];
}

async function prepare(ctx: PrepareContext): Promise<Preparation<Found>> {
  const env = await prepareDebianTorchEnv(PYTHON_ROW, ctx);
  if (!env.ok) return env;
  return { ok: true, versions: { ...env.versions, librdkafka: await librdkafkaVersion(env.python) }, deviations: DEVIATIONS, found: { python: env.python } };
}

/** How the page says consumed is read: the file by its name, so the page names no path of the machine that ran it. */
export const CONSUMED_DESCRIBE = `highest input offset + 1 the dataflow has scored, written by the app once a second to ${COUNTER_FILE} in the run's state ` +
  `folder (Bytewax commits no consumer group)`;

async function start(ctx: RunContext, { python }: Found): Promise<RunningProduct> {
  mkdirSync(ctx.runDir, { recursive: true });
  const state = ctx.stateDir;
  const recoveryDir = join(state, RECOVERY_DIR);
  if (!recoveryInitialised(state)) {
    // One recovery partition for the one worker; Bytewax's own initialiser, once per group.
    mkdirSync(recoveryDir, { recursive: true });
    await execa(python, ["-m", "bytewax.recovery", recoveryDir, "1"]);
  }
  const app = await startReadyApp({
    name: "bytewax",
    command: python,
    args: bytewaxRunArgs(recoveryDir),
    cwd: ctx.runDir,
    env: { ...benchAppEnv(ctx), BENCH_BYTEWAX_STATE_DIR: state },
    logFile: join(ctx.runDir, "bytewax.log"),
    // librdkafka's configuration dumps (debug=conf) of the source's admin client, its consumer
    // and the sink's producer run to some 200 lines: keep the skip lines and dumps in reach.
    tailLines: 2000,
    readyTimeoutMs: READY_TIMEOUT_MS,
  });
  ctx.log(`bytewax consuming ${ctx.inputTopic} with recovery in ${recoveryDir} (pid ${app.pid})`);
  return runningApp(app, {
    consumed: counterFile(join(state, COUNTER_FILE), CONSUMED_DESCRIBE),
    stopGraceMs: STOP_GRACE_MS,
  });
}

export const bytewax: Product<Found> = {
  id: "bytewax",
  exactlyOnce: {
    offered: false,
    why: "Bytewax's KafkaSink writes without transactions; its docstring: \"Can support at-least-once processing. Messages from the resume epoch " +
      "will be duplicated\"",
  },
  served: {
    offered: false,
    why: "not wired yet: its dataflow scores with the kit's RiskScorer in process; the kit's scorer_for and a " +
      "tritonclient pin checked against bytewax's own would serve it, as they serve flink",
  },
  modelCall: { runtime: "torch", records: 10_000 },
  row: {
    delivery: `at-least-once (recovery snapshots every ${SNAPSHOT_INTERVAL_S} s in SQLite; KafkaSink flushes every batch, idempotent, acks=all; a restart ` +
      `replays from the last snapshot)`,
    processing: "batch (KafkaSource ≤10k records per poll → flat_map_batch, one torch forward per batch)",
    engine: "in-process · Rust core (Timely Dataflow) + CPython 3.11, confluent-kafka (librdkafka)",
    scaling: "none (one worker: one partition is one source partition, and workers in one process share the GIL)",
    decode: "full record (19 of 19 fields, orjson dict)",
  },
  notes: [
    "Bytewax 0.21.1 is its last release: the project is community-maintained since its company wound down in 2025, with no release since 0.21.1 (which needs " +
      "Python ≤ 3.12).",
    "One dataflow, one worker (`python -m bytewax.run -w 1`; the bench's --parallelism is not used: the one input partition is one source partition, read by " +
      "one worker, and more workers in one process would share the GIL). KafkaSource hands the dataflow up to 10,000 records per poll; flat_map_batch parses " +
      "each with orjson (as the other Python rows), skips and counts those record_problem refuses, and runs ONE eager PyTorch forward per batch (torch " +
      "limited to 1 thread); KafkaSink produces one message per output, keyed by partition_key, and flushes after each batch.",
    "Consumed: Bytewax commits no consumer group (KafkaSource assigns the partition itself; its position lives in the recovery snapshot), so the app writes " +
      "the highest input offset + 1 it has scored to a file in the run folder once a second and the runner reads that (an engine counter moving in 1 s steps).",
    `Recovery: a recovery directory of one SQLite partition in the run's state folder (state/recovery, kept across the faults restart), snapshot interval ` +
      `${SNAPSHOT_INTERVAL_S} s, backup interval 0. After a kill -9 the restart resumes from the last snapshot and republishes what came after it ` +
      `(duplicates, never losses: the sink's flush has every output of a batch acknowledged before the snapshot that covers it; read from Bytewax's ` +
      `connector source and docs). SIGTERM ends the input at the next poll, so a stop is Bytewax's end of input: a last snapshot, the sink flushed, exit 0.`,
    "KafkaSource polls with a 1 ms timeout and, after an empty poll, the runtime polls again 1 ms later: an idle dataflow still costs some CPU.",
  ],
  prepare,
  start,
  prerequisites: debianTorchPrerequisites,
  ci: { rate: 5000 },
};
