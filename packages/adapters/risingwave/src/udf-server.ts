/**
 * The UDF server: app/main.py in a pinned venv over Debian's torch, started as its own
 * process group. It serves the function `risk` over Arrow Flight to RisingWave's actors.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort, startReadyApp, type ManagedProcess } from "@bench/core";

export const adapterDir = (): string => join(dirname(fileURLToPath(import.meta.url)), "..");
export const udfServerScript = (): string => join(adapterDir(), "app", "main.py");

export interface UdfServerOptions {
  python: string;
  modelsDir: string;
  logFile: string;
  /** Address to bind; 127.0.0.1 unless RisingWave reaches the server from elsewhere. */
  host?: string;
  port?: number;
  readyTimeoutMs?: number;
}

export interface UdfServer {
  process: ManagedProcess;
  host: string;
  port: number;
}

export async function startUdfServer(options: UdfServerOptions): Promise<UdfServer> {
  const host = options.host ?? "127.0.0.1";
  const port = options.port ?? (await freePort());
  const process = await startReadyApp({
    name: "the UDF server",
    command: options.python,
    args: ["-u", udfServerScript()],
    env: { BENCH_MODELS_DIR: options.modelsDir, BENCH_UDF_HOST: host, BENCH_UDF_PORT: String(port) },
    logFile: options.logFile,
    readyTimeoutMs: options.readyTimeoutMs ?? 120_000,
  });
  return { process, host, port };
}
