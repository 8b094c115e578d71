/**
 * The bench's model server: models/serve_model.py (KServe's Python model server hosting the frozen
 * model's ONNX export in ONNX Runtime) in its own pinned venv, prepared into the cache once, started
 * on free loopback ports, ready when its REST readiness endpoint says the model is, and stopped with
 * the run. It runs as a ManagedProcess (its own process group, killed when the runner exits,
 * however it exits), so it never outlives the runner. Rows call it on its gRPC port.
 */
import { join } from "node:path";
import { execa } from "execa";
import { freePort } from "./app-process.ts";
import { ManagedProcess } from "./child-process.ts";
import { killTree } from "./proc.ts";
import { DEBIAN_PYTHON } from "./debian-torch.ts";
import { MODEL_SERVER_REQUIREMENTS } from "./model-server-pins.ts";
import { ensurePythonEnv, pythonVersions } from "./python-env.ts";

/** What the page states about the server: its name and version, backend, threads and batching. */
export interface ModelServerFacts {
  server: string;
  version: string;
  backend: string;
  threads: string;
  batching: string;
  protocol: string;
}

export type PreparedModelServer = { ok: true; python: string; facts: ModelServerFacts } | { ok: false; reason: string };

/** The folder under the cache root the server's venv lives in. */
export const MODEL_SERVER_CACHE = "model-server";

/** The server's gRPC handler threads: kserve.ModelServer's default (max_threads), stated on the page. */
const GRPC_THREADS = 4;

export function modelServerFacts(versions: Record<string, string>): ModelServerFacts {
  return {
    server: "KServe Python model server (kserve.ModelServer)",
    version: versions.kserve ?? "unknown",
    backend: `ONNX Runtime ${versions.onnxruntime ?? "unknown"} (the card's ONNX export, CPUExecutionProvider)`,
    threads: `ONNX Runtime: 1 intra-op, 1 inter-op thread; gRPC: ${GRPC_THREADS} handler threads; one process (no uvicorn workers)`,
    batching: "none across requests: each request is one forward of the batch the row sent",
    protocol: "Open Inference Protocol (KServe v2) over gRPC",
  };
}

/** Builds (once, cached) the server's venv and checks that it loads the frozen model and reproduces the card's probes. */
export async function prepareModelServer(ctx: { cacheRoot: string; modelsDir: string; log(line: string): void }): Promise<PreparedModelServer> {
  let python: string;
  try {
    const spec = { python: DEBIAN_PYTHON, requirements: [...MODEL_SERVER_REQUIREMENTS] };
    ({ python } = await ensurePythonEnv(spec, join(ctx.cacheRoot, MODEL_SERVER_CACHE), ctx.log));
  } catch (error) {
    return { ok: false, reason: `the model server's Python environment: ${(error as Error).message}` };
  }
  const env = { PYTHONPATH: ctx.modelsDir, BENCH_MODELS_DIR: ctx.modelsDir };
  const check = await execa(python, ["-c", "import serve_model as s; s.RiskModel(s.model_name()).load()"], { env, reject: false, all: true });
  if (check.exitCode !== 0) {
    const why = String(check.all ?? "").trim().split("\n").slice(-6).join("\n");
    return { ok: false, reason: `the model server cannot load the frozen model:\n${why}` };
  }
  return { ok: true, python, facts: modelServerFacts(await pythonVersions(python, { kserve: "kserve", onnxruntime: "onnxruntime" })) };
}

export interface ModelServerOptions {
  python: string;
  modelsDir: string;
  /** The model's name on the server: the card's (BENCH_MODEL). */
  model: string;
  /** stdout and stderr of every start are appended here. */
  logFile: string;
  /** How long a start may take to load the model and answer ready. */
  readyTimeoutMs?: number;
}

const READY_TIMEOUT_MS = 60_000;
const READY_POLL_MS = 200;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * One model server the bench owns, on ports chosen at its first start and kept by a restart (so a
 * row's client finds it again at the same address after a kill -9).
 */
export class ModelServer {
  private process: ManagedProcess | undefined;
  private ports: { http: number; grpc: number } | undefined;

  constructor(private readonly options: ModelServerOptions) {}

  /** The gRPC target rows call ("127.0.0.1:port"); known once started. */
  get grpcTarget(): string {
    if (!this.ports) throw new Error("the model server has not been started");
    return `127.0.0.1:${this.ports.grpc}`;
  }

  /** Roots of the process tree to sample beside the row's; empty while it is down. */
  rootPids(): number[] {
    return this.process && !this.process.hasExited ? [this.process.pid] : [];
  }

  logTail(lines = 30): string {
    return this.process?.logTail(lines) ?? "";
  }

  /** Starts it (on the ports of its first start, if any) and resolves once the model answers ready. */
  async start(): Promise<void> {
    this.ports ??= { http: await freePort(), grpc: await freePort() };
    const { python, modelsDir, model, logFile } = this.options;
    const server = new ManagedProcess({
      command: python,
      args: [join(modelsDir, "serve_model.py"), "--http_port", String(this.ports.http), "--grpc_port", String(this.ports.grpc)],
      cwd: modelsDir,
      env: { PYTHONPATH: modelsDir, BENCH_MODELS_DIR: modelsDir, BENCH_MODEL: model, PYTHONUNBUFFERED: "1" },
      logFile,
    });
    this.process = server;
    try {
      await this.waitReady(server, this.options.readyTimeoutMs ?? READY_TIMEOUT_MS);
    } catch (error) {
      await server.stop();
      throw new Error(`the model server did not become ready: ${(error as Error).message}\n${server.logTail()}`);
    }
  }

  /** kill -9 of its whole process tree (a fault, as core's killTree stages a product's): it stays down until start() is called again. */
  async kill(): Promise<void> {
    const server = this.process;
    if (!server) return;
    killTree([server.pid]);
    await server.exited;
  }

  /** Ends it (gracefully, then by force); never throws. */
  async stop(): Promise<void> {
    await this.process?.stop().catch(() => undefined);
  }

  private async waitReady(server: ManagedProcess, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    await server.waitForLine(/^SERVER_READY /, timeoutMs);
    const url = `http://127.0.0.1:${this.ports?.http}/v2/models/${encodeURIComponent(this.options.model)}/ready`;
    while (Date.now() < deadline) {
      if (server.hasExited) throw new Error("exited before it answered ready");
      const ready = await fetch(url, { signal: AbortSignal.timeout(2000) }).then((r) => r.ok, () => false);
      if (ready) return;
      await sleep(READY_POLL_MS);
    }
    throw new Error(`${url} did not answer ready within ${timeoutMs / 1000}s`);
  }
}
