/**
 * The pathway row: a Pathway 0.33 dataflow (app/main.py) in a pinned venv over Debian's torch.
 * prepare() builds the venv once into the cache; start() runs the app against the run's topics
 * with Pathway's engine threads set from --parallelism; consumed is the app's own counter.
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import {
  counterFile,
  debianTorchPrerequisites,
  prepareDebianTorchEnv,
  startReadyApp,
  type Preparation,
  type PrepareContext,
  type Product,
  type RunContext,
  type RunningProduct,
} from "@bench/core";
import { CONSUMED_DESCRIBE, consumedFile, pathwayAppEnv, persistenceDir } from "./app-env.ts";
import { PYTHON_ROW } from "./pins.ts";

/** What start() needs from prepare(): the venv's interpreter. */
interface Found {
  python: string;
}

const APP_DIR = join(import.meta.dirname, "..", "app");
/** First start imports pathway and torch and checks the model card's probes: slow on a busy 2-core box. */
const READY_TIMEOUT_MS = 180_000;
/** Pathway stops on SIGTERM after its current minibatch and flushes its writers. */
const STOP_GRACE_MS = 20_000;

const DEVIATIONS = [
  "restarts use Pathway's persistence in PERSISTING mode (OPERATOR_PERSISTING, offsets only, needs a licence key): every input record is also written to a " +
    "snapshot folder in the run's state folder, about 150 bytes a record, removed when the run stops; that disk work is in the row's CPU",
  "Pathway's Kafka writer adds two headers to every output message (pathway_time, pathway_diff) and keys it by Pathway's 16-byte row id; the value is " +
    "exactly {event_id, ts_ms, risk}",
  "Pathway's reader leaves librdkafka's enable.auto.commit on (its default): the group's committed offset is what the reader has fetched, not what was " +
    "scored, so consumed/s is read from the app's own counter",
];

async function prepare(ctx: PrepareContext): Promise<Preparation<Found>> {
  const env = await prepareDebianTorchEnv(PYTHON_ROW, ctx);
  return env.ok ? { ok: true, versions: env.versions, deviations: DEVIATIONS, found: { python: env.python } } : env;
}

async function start(ctx: RunContext, { python }: Found): Promise<RunningProduct> {
  const app = await startReadyApp({
    name: "pathway",
    command: python,
    args: [join(APP_DIR, "main.py")],
    cwd: APP_DIR,
    env: pathwayAppEnv(ctx),
    logFile: join(ctx.runDir, "pathway.log"),
    readyTimeoutMs: READY_TIMEOUT_MS,
  });
  ctx.log(`pathway consuming ${ctx.inputTopic} as group ${ctx.groupId} (pid ${app.pid}, ${Math.max(1, ctx.parallelism)} engine threads)`);
  const file = consumedFile(ctx);
  return {
    rootPids: () => [app.pid],
    consumed: counterFile(file, CONSUMED_DESCRIBE),
    exited: app.exited,
    logTail: (lines) => app.logTail(lines),
    stop: async () => {
      await app.stop(STOP_GRACE_MS);
      // The persisted state is for a restart within the run; the run ends here.
      await rm(persistenceDir(ctx), { recursive: true, force: true });
    },
  };
}

export const pathway: Product<Found> = {
  id: "pathway",
  exactlyOnce: {
    offered: false,
    why: "open-source Pathway's persistence \"is at-least-once delivery\"; its docs keep exactly-once for the enterprise edition on selected connectors",
  },
  served: {
    offered: false,
    why: "not wired yet: its UDF scores with the kit's RiskScorer in process; the kit's scorer_for and a tritonclient " +
      "pin checked against pathway's own would serve it, as they serve flink",
  },
  modelCall: { runtime: "torch", records: 128 },
  row: {
    delivery: "at-least-once (Pathway persistence in PERSISTING mode, a snapshot a second, a restart replays what followed it; acks=all, idempotent producer)",
    processing: "micro-batch (100 ms minibatches), batched UDF: one torch forward per call, ≤128 rows a call",
    engine: "in-process · Rust dataflow engine (timely/differential) + CPython UDF, librdkafka (rust-rdkafka)",
    scaling: "engine worker threads (PATHWAY_THREADS = --parallelism): one worker reads the partition, the engine spreads the rows over all (UDF calls split " +
      "evenly over 2 workers, measured); the UDF's Python holds the GIL",
    decode: "full record (19 of 19 fields, orjson dict in the UDF)",
  },
  notes: [
    "pw.io.kafka.read(format=\"raw\", with_metadata=True) hands a pw.udf(max_batch_size=10000, deterministic=True) the minibatch's raw values with their " +
      "offsets; the engine calls it with at most 128 rows at a time (measured: 128 while minibatches held ~4,300 records, whatever max_batch_size or " +
      "pw.run's max_expression_batch_size say). Each call decodes every record with orjson, checks it with the kit's complete-record rule (bad records are " +
      "skipped with 'skipped record at offset N'), runs ONE eager PyTorch forward for the batch (torch limited to 1 thread) and encodes each output with " +
      "orjson; pw.io.kafka.write(format=\"raw\") publishes it. Pathway's own format=\"json\" was not used: it parses in Rust, but drops a record that is not " +
      "JSON with a log line that has no offset and turns a record missing a field into error cells (one error per field), with terminate_on_error=False " +
      "only, so skipped records cannot be counted one by one.",
    "Pathway is BSL-licensed. No licence key is set: the engine then starts no telemetry and makes no licence call (the app clears PATHWAY_LICENSE_KEY and " +
      "the monitoring settings, monitoring_level NONE). Without a key, OPERATOR_PERSISTING (offsets only) is refused (FULL-PERSISTENCE entitlement), so " +
      "restarts use PERSISTING mode, which also writes every input record to the snapshot folder; multi-machine runs need a key checked online, which was " +
      "not tried here.",
    "consumed/s is the app's own counter: the input offset its scoring UDF has gone through, written to a file in the run folder each second.",
    "After a kill -9 the restarted reader replays Pathway's snapshot (without emitting its outputs again) and waits until the broker drops the killed member " +
      "from the consumer group (librdkafka's session.timeout.ms, 45 s by default) before it gets the partition: the first new output came 44-45 s after the " +
      "kill in two --faults runs (2,000/s: 0 lost, 801 duplicates; 5,000/s: 0 lost, 0 duplicates; 21 of 21 pills skipped in each).",
  ],
  prepare,
  start,
  prerequisites: debianTorchPrerequisites,
  lossUnderKill:
    "read from Pathway's source (its main branch; 0.33.0's Rust source is not in the wheel), not measured: the Kafka writer's flush only hands the " +
      "minibatch's messages to librdkafka, without waiting for the broker, so outputs still queued in librdkafka at a kill -9 are lost if the persisted " +
      "snapshot already covers their input; whether the snapshot waits for the writer was not established. Two --faults runs (2,000/s, 5,000/s) lost none " +
      "and duplicated 801 and 0 (what followed the last snapshot, replayed)",
  ci: { rate: 5000 },
};
