import { join } from "node:path";
import {
  benchAppEnv, runningApp, startReadyApp, timeModelAloneChild, timingArgs, type ModelAloneTiming, type PrepareContext, type Product, type RunContext,
  type RunningProduct,
} from "@bench/core";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const APP = join(import.meta.dirname, "app", "main.ts");
const MODEL_ALONE = join(import.meta.dirname, "model-alone", "time.ts");
/** One onnxruntime-node call per batch of at most 10k records (the consume batch). */
const MODEL_CALL = { runtime: "onnxruntime", records: 10_000, host: "node" } as const;

function versions(): Record<string, string> {
  const pkg = (name: string): string => (require(`${name}/package.json`) as { version: string }).version;
  return {
    node: process.versions.node,
    "kafka-javascript": pkg("@confluentinc/kafka-javascript"),
    librdkafka: (require("@confluentinc/kafka-javascript") as { librdkafkaVersion: string }).librdkafkaVersion,
    "onnxruntime-node": pkg("onnxruntime-node"),
  };
}

/** The row's own onnxruntime-node call at its own shape, in a node process of its own. */
function timeModelAlone(ctx: PrepareContext, model: string, records: number): Promise<ModelAloneTiming> {
  return timeModelAloneChild("the node row's model alone", process.execPath, ["--import", "tsx", MODEL_ALONE, String(records), ...timingArgs()], {
    cwd: import.meta.dirname,
    env: { ...process.env, BENCH_MODELS_DIR: ctx.modelsDir, BENCH_MODEL: model } as Record<string, string>,
  });
}

async function startApp(ctx: RunContext, mode: "model" | "passthrough"): Promise<RunningProduct> {
  const app = await startReadyApp({
    name: `node (${mode})`,
    command: process.execPath,
    args: ["--import", "tsx", APP],
    cwd: import.meta.dirname,
    env: { ...benchAppEnv(ctx), BENCH_NODE_MODE: mode },
    logFile: join(ctx.runDir, `node-${mode}.log`),
    readyTimeoutMs: 60_000,
  });
  return runningApp(app);
}

/**
 * Both rows run the same loop (app/transactions.ts), one transaction per batch the loop already
 * takes: a read_committed reader waits at most one batch for a record's output.
 */
const EXACTLY_ONCE = {
  offered: true,
  how: "transactional loop (transactional.id = the run's): initTransactions, per batch beginTransaction, produce, sendOffsetsToTransaction, commitTransaction",
  commits: "once per batch (≤10k records or the consume wait)",
} as const;
const EXACTLY_ONCE_NOTE =
  "Under --guarantee exactly-once each batch is one Kafka transaction (its outputs and the consumer's positions after it); an abortable failure aborts " +
  "and reads the batch again, a fatal one (fenced, or a call stuck in librdkafka) ends the app non-zero and its restart goes on from the last commit.";

const SHARED_ROW = {
  delivery: "at-least-once (idempotent, acks=all; commit after producer flush)",
  engine: "in-process · Node.js over librdkafka (@confluentinc/kafka-javascript)",
  scaling: "none (one consumer, one JS thread)",
};

export const nodeModel: Product = {
  id: "node",
  served: {
    offered: true,
    how: "one Open Inference Protocol (KServe v2) gRPC ModelInfer call per batch (≤10k records: the batch it scores embedded), with @grpc/grpc-js; " +
      "the batch is held and nothing committed while the server is down",
  },
  modelCall: MODEL_CALL,
  timeModelAlone: (ctx, model) => timeModelAlone(ctx, model, MODEL_CALL.records),
  row: {
    ...SHARED_ROW,
    processing: "batch (≤10k records → one onnxruntime-node call)",
    decode: "full JSON.parse of the UTF-8 value (6 of 19 fields used), JSON.stringify out",
  },
  notes: [
    "REFERENCE ROW — a TypeScript consumer written for this bench, not a stream processor: librdkafka with the seed's fetch settings, each record decoded " +
      "as UTF-8 and parsed by JSON.parse (a record that is not a complete telemetry record is skipped and counted), the four features into a Float32Array, " +
      "one ONNX Runtime call per batch (single-threaded), one produce per record written by JSON.stringify. What a framework adds on top of this is its cost.",
    "Its decode is a full JSON.parse, as every row's is: a text search for six fields would mis-score or drop valid records written in other JSON spellings.",
    EXACTLY_ONCE_NOTE,
  ],
  exactlyOnce: EXACTLY_ONCE,
  prepare: async () => ({ ok: true, versions: versions(), found: undefined }),
  start: (ctx) => startApp(ctx, "model"),
  ci: { rate: 20_000 },
};

export const nodePassthrough: Product = {
  id: "node-passthrough",
  // The node row's runtime and client: its version on the page is node's.
  family: "node",
  passthrough: true,
  served: { offered: false, why: "it calls no model: the ceiling republishes each record unscored" },
  row: {
    ...SHARED_ROW,
    processing: "batch (≤10k records, no model)",
    decode: "none (bytes republished as they came)",
  },
  notes: [
    "CEILING — the node row with no decode and no model: consume and republish. The most one partition moves through one consumer and one producer on this " +
      "machine; read every row against it.",
    EXACTLY_ONCE_NOTE,
  ],
  exactlyOnce: EXACTLY_ONCE,
  prepare: async () => ({ ok: true, versions: versions(), found: undefined }),
  start: (ctx) => startApp(ctx, "passthrough"),
  ci: { rate: 20_000 },
};
