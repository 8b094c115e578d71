/**
 * The two Turbine rows: the same app shape on the user's free-threaded CPython 3.14, scored
 * either by Turbine's native ONNX operator (turbine) or by eager PyTorch in the handler
 * (turbine-torch). prepare() finds the interpreter and builds the row's venv once into the
 * cache; start() runs the app from it.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import {
  ensurePythonEnv,
  freePort,
  KafkaAdmin,
  pythonVersions,
  startReadyApp,
  missingReason,
  type Preparation,
  type PrepareContext,
  type Product,
  type RunContext,
  type RunningProduct,
} from "@bench/core";
import { appEnv, turbineGroup } from "./app-env.ts";
import { locateFreeThreadedPython, missingInterpreter, turbinePrerequisites } from "./interpreter.ts";
import { VERSION_MODULES } from "./pins.ts";
import { preparationFrom, type Found, type Variant } from "./preparation.ts";
import { venvSpec } from "./venv-plan.ts";

export const APP_DIR = join(import.meta.dirname, "..", "app");
/** Imports the row's handler module, which checks the model card's probes (app/). */
const MODEL_CHECKS: Record<Variant, string> = {
  onnx: "import onnx_features; onnx_features.check_model()",
  torch: "import torch_score",
};
/** First start imports torch / ONNX Runtime and checks the card's probes: slow on a busy 2-core box. */
const READY_TIMEOUT_MS = 180_000;
const STOP_GRACE_MS = 20_000;

async function venvPython(variant: Variant, ctx: PrepareContext): Promise<{ ok: true; python: string } | { ok: false; reason: string }> {
  const interpreter = await locateFreeThreadedPython(process.env);
  if (interpreter.kind === "none") return { ok: false, reason: missingReason(missingInterpreter(interpreter)) };
  try {
    const env = await ensurePythonEnv(venvSpec(variant, interpreter.path, process.env), ctx.cacheDir, ctx.log);
    return { ok: true, python: env.python };
  } catch (error) {
    return { ok: false, reason: `the Turbine venv from ${interpreter.path} (${interpreter.from}): ${(error as Error).message}` };
  }
}

async function prepare(variant: Variant, ctx: PrepareContext): Promise<Preparation<Found>> {
  const venv = await venvPython(variant, ctx);
  if (!venv.ok) return venv;
  const env = { BENCH_MODELS_DIR: ctx.modelsDir, PYTHONPATH: [APP_DIR, ctx.modelsDir].join(":") };
  for (const [what, code] of [["import turbine", "import turbine"], ["the model check", MODEL_CHECKS[variant]]] as const) {
    const run = await execa(venv.python, ["-c", code], { reject: false, all: true, env });
    if (run.exitCode !== 0) return {
      ok: false,
      reason: `${what} fails in the Turbine venv:\n${String(run.all ?? "").trim().split("\n").slice(-8).join("\n")}`,
    };
  }
  return preparationFrom(variant, await pythonVersions(venv.python, VERSION_MODULES), venv.python);
}

async function start(variant: Variant, ctx: RunContext, { python }: Found): Promise<RunningProduct> {
  mkdirSync(ctx.runDir, { recursive: true });
  const app = await startReadyApp({
    name: `turbine (${variant})`,
    command: python,
    args: [join(APP_DIR, "main.py"), variant],
    env: appEnv(ctx, await freePort()),
    logFile: join(ctx.runDir, `turbine-${variant}.log`),
    readyTimeoutMs: READY_TIMEOUT_MS,
  });
  // Turbine commits to a group it names itself, so consumed is read from that group.
  const group = turbineGroup(ctx);
  let admin: Promise<KafkaAdmin> | undefined;
  return {
    rootPids: () => [app.pid],
    consumed: {
      kind: "engine-counter",
      describe: `committed offset of Turbine's own consumer group ${group}`,
      read: async () => (await (admin ??= KafkaAdmin.connect(ctx.bootstrap))).committedOffset(group, ctx.inputTopic),
    },
    exited: app.exited,
    logTail: (lines) => app.logTail(lines),
    stop: async () => {
      await app.stop(STOP_GRACE_MS);
      if (admin) await (await admin).close().catch(() => undefined);
    },
  };
}

/** Turbine's pinned wheel is not on this machine's package index, so its source could not be read for a transactional sink. */
const NO_EXACTLY_ONCE = {
  offered: false,
  why: "not read: Turbine's pinned release is not on the package index here, so whether its processing_guarantee has an exactly-once mode is unknown",
} as const;

const SHARED_NOTES =
  "Runs on the user's free-threaded CPython 3.14 (TURBINE_PYTHON, or python3.14t on PATH) in a venv of exact pins from the Python package index; no chroot. " +
    "Turbine's Kafka client settings are its own (hard-coded in its Rust core); it commits to its own group turbine-<app_id>-<topic>-score, read for " +
    "consumed/s.";

export const turbine: Product<Found> = {
  id: "turbine",
  exactlyOnce: NO_EXACTLY_ONCE,
  row: {
    delivery: "at-least-once (Turbine processing_guarantee=at_least_once; producer settings Turbine's own)",
    processing: "batch (Arrow columnar; native ONNX Runtime operator infer=ml.OnnxModel on every emitted batch)",
    engine: "in-process · Rust core + CPython 3.14t (free-threaded)",
    scaling: "intra-partition shards (parallelism=N, hash of partition_key, in-process threads without a GIL)",
    decode: "schema projection (7 of 19 fields, Arrow)",
  },
  notes: [
    "NATIVE operator: the handler only makes the four normalised feature columns with Arrow compute kernels; infer=ml.OnnxModel(risk_mlp.onnx) on the " +
      "subscription scores every emitted batch in Rust (ONNX Runtime, dlopened from the venv's onnxruntime package). The ONNX export is checked against the " +
      "model card's probe rows at start-up. infer= appends risk to what the handler emits, so the four float32 feature columns are published too.",
    SHARED_NOTES,
  ],
  prepare: (ctx) => prepare("onnx", ctx),
  start: (ctx, found) => start("onnx", ctx, found),
  prerequisites: turbinePrerequisites,
  ci: { rate: 5000 },
};

export const turbineTorch: Product<Found> = {
  id: "turbine-torch",
  exactlyOnce: NO_EXACTLY_ONCE,
  // One interpreter, one cache folder of venvs; its version on the page is turbine's.
  family: "turbine",
  row: {
    delivery: "at-least-once (Turbine processing_guarantee=at_least_once; producer settings Turbine's own)",
    processing: "batch (Arrow columnar → DLPack → torch eager, one forward per batch)",
    engine: "in-process · Rust core + CPython 3.14t (free-threaded)",
    scaling: "intra-partition shards (parallelism=N, hash of partition_key, in-process threads without a GIL)",
    decode: "schema projection (7 of 19 fields, Arrow)",
  },
  notes: [
    "CONTROL LINE: Turbine with the model as eager PyTorch in the handler (the venv's torch; the other Python rows run Debian's 1.13.1). The four metric " +
      "columns reach torch through DLPack without copies; stacking them into the [rows, 4] input is the one copy; one forward per batch.",
    SHARED_NOTES,
  ],
  prepare: (ctx) => prepare("torch", ctx),
  start: (ctx, found) => start("torch", ctx, found),
  prerequisites: turbinePrerequisites,
  ci: { rate: 5000 },
};
