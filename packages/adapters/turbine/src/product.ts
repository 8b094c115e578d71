/**
 * The two Turbine rows: the same app shape in the Debian sid root, scored either by Turbine's
 * native ONNX operator (turbine) or by eager PyTorch in the handler (turbine-torch).
 * prepare() builds the root once into the cache (root.ts); start() runs the app chrooted.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import {
  freePort,
  KafkaAdmin,
  pythonVersionsScript,
  startReadyApp,
  type Preparation,
  type PrepareContext,
  type Product,
  type RunContext,
  type RunningProduct,
} from "@bench/core";
import { appEnv, IN_ROOT, turbineGroup } from "./app-env.ts";
import { rootInvocation } from "./chroot.ts";
import { ROOT_VENV, VERSION_MODULES } from "./pins.ts";
import { preparationFrom, type Variant } from "./preparation.ts";
import { ensureRoot, runInRoot } from "./root.ts";

const APP_DIR = join(import.meta.dirname, "..", "app");
const SCRIPTS: Record<Variant, string> = { onnx: "turbine_onnx.py", torch: "turbine_torch.py" };
/** First start imports torch / ONNX Runtime and checks the card's probes: slow on a busy 2-core box. */
const READY_TIMEOUT_MS = 180_000;
const STOP_GRACE_MS = 20_000;

async function prepare(variant: Variant, ctx: PrepareContext): Promise<Preparation> {
  const built = await ensureRoot(ctx.cacheDir, ctx.log);
  if (!built.ok) return built;
  const python = join(ROOT_VENV, "bin", "python");
  // pythonVersions runs a host interpreter; the versions must come from inside the root.
  const versions = await runInRoot(built.root, [python, "-c", pythonVersionsScript(VERSION_MODULES)]);
  if (versions.exitCode !== 0) return { ok: false, reason: `could not read versions in the root:\n${versions.output}` };
  const imported = await runInRoot(built.root, [python, "-c", "import turbine"], { TURBINE_ALLOW_GIL: "1" });
  if (imported.exitCode !== 0) return { ok: false, reason: `import turbine fails in the root:\n${imported.output.trim().split("\n").slice(-8).join("\n")}` };
  const dpkg = await runInRoot(built.root, ["dpkg-query", "-W", "-f=${Version}", "python3-torch"]);
  const reported = JSON.parse(versions.output.trim().split("\n").pop() as string) as Record<string, string>;
  return preparationFrom(variant, reported, dpkg.exitCode === 0 && dpkg.output !== "" ? dpkg.output.trim() : undefined);
}

async function start(variant: Variant, ctx: RunContext): Promise<RunningProduct> {
  const built = await ensureRoot(ctx.cacheDir, ctx.log);
  if (!built.ok) throw new Error(built.reason);
  mkdirSync(ctx.runDir, { recursive: true });
  const inv = rootInvocation(
    built.root,
    [join(ROOT_VENV, "bin", "python"), `${IN_ROOT.app}/${SCRIPTS[variant]}`],
    [
      { host: APP_DIR, inRoot: IN_ROOT.app, readOnly: true },
      { host: ctx.modelsDir, inRoot: IN_ROOT.models, readOnly: true },
      { host: ctx.runDir, inRoot: IN_ROOT.run },
    ],
  );
  const app = await startReadyApp({
    name: `turbine (${variant})`,
    command: inv.command,
    args: inv.args,
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

const SHARED_NOTES =
  "Runs in a Debian sid root (debootstrap, built once into the cache) under unshare --mount + chroot: Python 3.14 standard GIL build with TURBINE_ALLOW_GIL=1, since no free-threaded 3.14 is reachable here; same host PID namespace and network. Turbine's Kafka client settings are its own (hard-coded in its Rust core); it commits to its own group turbine-<app_id>-<topic>-score, read for consumed/s.";

export const turbine: Product = {
  id: "turbine",
  row: {
    delivery: "at-least-once (Turbine processing_guarantee=at_least_once; producer settings Turbine's own)",
    processing: "batch (Arrow columnar; native ONNX Runtime operator infer=ml.OnnxModel on every emitted batch)",
    engine: "in-process · Rust core + CPython 3.14 (standard GIL build, TURBINE_ALLOW_GIL=1)",
    scaling: "intra-partition shards (parallelism=N, hash of partition_key, in-process threads sharing the GIL)",
    decode: "schema projection (7 of 19 fields, Arrow)",
  },
  notes: [
    "NATIVE operator: the handler only makes the four normalised feature columns with Arrow compute kernels; infer=ml.OnnxModel(risk_mlp.onnx) on the subscription scores every emitted batch in Rust (ONNX Runtime, dlopened from Debian's python3-onnxruntime). The ONNX export is checked against the model card's probe rows at start-up. infer= appends risk to what the handler emits, so the four float32 feature columns are published too.",
    SHARED_NOTES,
  ],
  prepare: (ctx) => prepare("onnx", ctx),
  start: (ctx) => start("onnx", ctx),
};

export const turbineTorch: Product = {
  id: "turbine-torch",
  row: {
    delivery: "at-least-once (Turbine processing_guarantee=at_least_once; producer settings Turbine's own)",
    processing: "batch (Arrow columnar → DLPack → torch eager, one forward per batch)",
    engine: "in-process · Rust core + CPython 3.14 (standard GIL build, TURBINE_ALLOW_GIL=1)",
    scaling: "intra-partition shards (parallelism=N, hash of partition_key, in-process threads sharing the GIL)",
    decode: "schema projection (7 of 19 fields, Arrow)",
  },
  notes: [
    "CONTROL LINE: Turbine with the model as eager PyTorch in the handler (Debian sid's torch 2.14; the other Python rows run 1.13.1). The four metric columns reach torch through DLPack without copies; stacking them into the [rows, 4] input is the one copy; one forward per batch.",
    SHARED_NOTES,
  ],
  prepare: (ctx) => prepare("torch", ctx),
  start: (ctx) => start("torch", ctx),
};
