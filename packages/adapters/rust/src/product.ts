/**
 * The native row: a plain Rust consume-score-produce loop (app/) on librdkafka (the rdkafka
 * crate, librdkafka built from source), sonic-rs and ONNX Runtime (the ort crate), no runtime
 * and no framework. It is the floor of every row: the page reads each row against it ("what
 * the framework adds", and each row's cost as a multiple of it). prepare() builds the app with
 * cargo into the cache and fetches ONNX Runtime's library from the onnxruntime wheel.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  runningApp, startReadyApp, timeModelAloneChild, timingArgs, unmetReason, type ModelAloneTiming, type Preparation, type PrepareContext, type Product,
  type RunContext, type RunningProduct,
} from "@bench/core";
import { appCommand, type BuiltRow } from "./app-env.ts";
import { APP_DIR, buildApp } from "./build.ts";
import { ensureOnnxRuntime } from "./onnxruntime.ts";
import { crateVersions, ONNXRUNTIME_VERSION } from "./pins.ts";
import { parseRustcVersion, rustcVersion, rustPrerequisites } from "./prerequisites.ts";

/** Loading ONNX Runtime, the probe rows and the group's first rebalance on a busy 2-core machine. */
const READY_TIMEOUT_MS = 60_000;

async function prepare(ctx: PrepareContext): Promise<Preparation<BuiltRow>> {
  const unmet = unmetReason(await rustPrerequisites());
  if (unmet) return { ok: false, reason: unmet };
  const rustc = (await rustcVersion()) ?? "";
  try {
    const [binary, onnxruntime] = [await buildApp(ctx.cacheDir, rustc, ctx.log), await ensureOnnxRuntime(ctx.cacheDir, ctx.log)];
    const versions = {
      ...crateVersions(readFileSync(join(APP_DIR, "Cargo.lock"), "utf8")),
      onnxruntime: ONNXRUNTIME_VERSION,
      rustc: parseRustcVersion(rustc)?.join(".") ?? rustc,
    };
    // Every shared setting goes to librdkafka as it is: no deviation.
    return { ok: true, versions, deviations: [], found: { binary, onnxruntime } };
  } catch (error) {
    return { ok: false, reason: `preparing the Rust row: ${(error as Error).message}` };
  }
}

/** One ONNX Runtime run per poll of at most 10k records. */
const MODEL_CALL = { runtime: "onnxruntime", records: 10_000, host: "rust" } as const;

/** The row's own call (Model::score through the ort crate) at its own shape: the built binary with --model-alone. */
async function timeModelAlone(ctx: PrepareContext, model: string): Promise<ModelAloneTiming> {
  const prepared = await prepare(ctx);
  if (!prepared.ok) throw new Error(prepared.reason);
  const { binary, onnxruntime } = prepared.found;
  const timing = await timeModelAloneChild("the rust row's model alone", binary, ["--model-alone", String(MODEL_CALL.records), ...timingArgs()], {
    env: { ...process.env, BENCH_MODELS_DIR: ctx.modelsDir, BENCH_MODEL: model, BENCH_ONNXRUNTIME: onnxruntime } as Record<string, string>,
  });
  const { ort, onnxruntime: version } = prepared.versions;
  return { versions: { ...(ort ? { ort } : {}), ...(version ? { onnxruntime: version } : {}) }, usPerRecord: timing.usPerRecord };
}

async function start(ctx: RunContext, built: BuiltRow): Promise<RunningProduct> {
  const { command, args, env } = appCommand(ctx, built);
  const app = await startReadyApp(
    { name: "rust", command, args, cwd: ctx.runDir, env, logFile: join(ctx.runDir, "rust.log"), readyTimeoutMs: READY_TIMEOUT_MS },
  );
  ctx.log(`rust consuming ${ctx.inputTopic} as group ${ctx.groupId} (pid ${app.pid}; one thread whatever the parallelism, ${ctx.parallelism})`);
  // The loop stops within one batch wait (100 ms) plus a flush and a commit (or a transaction's commit): the default grace is ample.
  return runningApp(app);
}

export const rust: Product<BuiltRow> = {
  id: "rust",
  served: {
    offered: false,
    why: "not wired yet: the loop calls the ort crate in process and holds no Open Inference Protocol client (a gRPC " +
      "client over the protocol's messages, as the node and kafka-streams rows carry, would serve it)",
  },
  modelCall: MODEL_CALL,
  timeModelAlone,
  exactlyOnce: {
    offered: true,
    how:
      "transactional loop (transactional.id the run's): init_transactions once, per batch begin_transaction, produce, " +
      "send_offsets_to_transaction, commit_transaction; on an abortable error abort_transaction and a seek back to the committed offsets",
    commits: "once per batch (≤10k records or the 100 ms batch wait)",
  },
  row: {
    delivery: "at-least-once (idempotent, acks=all; per batch: flush until every output is acknowledged, then a synchronous commit)",
    processing: "batch (poll of ≤10k records or 100 ms), one ONNX Runtime run per batch, one produce() per record",
    engine: "in-process · native Rust loop over librdkafka (rdkafka crate) + ONNX Runtime (ort crate), no runtime, no framework",
    scaling: "none (one consumer, one thread)",
    decode: "full record (19 of 19 fields into a struct, sonic-rs); bench_kit's complete-record rule",
  },
  notes: [
    "The native floor: what the same work costs with no runtime around it, the row every other row is read against. A compiled Rust loop written as a " +
      "careful user writes it, not tuned beyond that: librdkafka through the rdkafka crate (librdkafka built from the crate's source), the same synchronous " +
      "batch loop as the Python floor (poll up to 10k records or 100 ms, score, produce, flush until every output is acknowledged, then a synchronous commit).",
    "Per record: sonic-rs decodes the value whole into a 19-field struct (strings unescaped, numbers parsed; unknown fields skipped), then the kit's " +
      "complete-record rule (a JSON object, a string event_id, ts_ms and the four metrics finite numbers, not booleans); a record that cannot be scored is " +
      "skipped, counted and logged, and its offset is committed with the batch. sonic-rs because it was the fastest of the three well-kept Rust JSON " +
      "libraries on this record where they were compared on a machine of this kind (about 200 ns per record, simd-json 550, serde_json 890), and it decodes " +
      "through serde into a plain struct; the app is compiled for the CPU it runs on (target-cpu=native) so sonic-rs uses its SIMD paths. A number that " +
      "overflows a double (1e999) is refused by the parser, so such a record is skipped even where Python's parsers read Infinity in a field the rule does " +
      "not check.",
    "Per batch: clip(value / maximum, 0, 1) as float32 for the four metrics (maxima from the model card), ONE ONNX Runtime run on a [n, 4] tensor (1 " +
      "intra-op thread; ONNX Runtime 1.31 from the onnxruntime wheel, loaded at run time, checked against the card's probe rows at start), then one " +
      "{event_id, ts_ms, risk} per scored record encoded with sonic-rs and produced keyed by partition_key. The app times its own stages with its thread's " +
      "CPU clock and prints them (BENCH_STAGES) for the breakdown.",
    "Consumed/s is the group's committed offset, moved once per batch. A kill -9 replays the uncommitted batch in hand, whose outputs may already be in the " +
      "output topic: duplicates are possible (at most one batch), losses are not.",
    "Under exactly-once each batch is one Kafka transaction of its outputs and its offsets (init_transactions once with the run's transactional.id, " +
      "then per batch begin_transaction, produce, send_offsets_to_transaction, commit_transaction), so a read_committed reader sees every output once; " +
      "an abortable error aborts the batch and seeks back to the committed offsets, and a fatal one (fenced) ends the app.",
  ],
  prepare,
  start,
  prerequisites: rustPrerequisites,
  // A commit only follows a flush with no failed delivery report, as the Python floor's: a
  // kill -9 loses nothing, so lossUnderKill stays absent.
  ci: { rate: 5000 },
  floorFor: "native",
};
