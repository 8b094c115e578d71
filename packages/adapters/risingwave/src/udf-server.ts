/**
 * The UDF server: app/udf_server.py in a pinned venv over Debian's torch, started as its own
 * process group. It serves the function `risk` over Arrow Flight to RisingWave's actors.
 */
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ensurePythonEnv, ManagedProcess, type PythonEnv } from "@bench/core";

export const PYTHON = "/usr/bin/python3.11";

/** Exact pins. numpy stays at Debian 12's 1.24.2 so pip never replaces the numpy under Debian's torch 1.13.1. */
export const UDF_REQUIREMENTS = ["arrow-udf==0.3.2", "pyarrow==25.0.1", "numpy==1.24.2"];

export const adapterDir = (): string => join(dirname(fileURLToPath(import.meta.url)), "..");
export const udfServerScript = (): string => join(adapterDir(), "app", "udf_server.py");

export function ensureUdfEnv(cacheDir: string, log: (line: string) => void): Promise<PythonEnv> {
  return ensurePythonEnv({ python: PYTHON, systemSitePackages: true, requirements: UDF_REQUIREMENTS }, cacheDir, log);
}

/** A port free right now on `host` (the OS picks it). */
export function freePort(host = "127.0.0.1"): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

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
  const port = options.port ?? (await freePort(host === "0.0.0.0" ? "127.0.0.1" : host));
  const process = new ManagedProcess({
    command: options.python,
    args: ["-u", udfServerScript()],
    env: { BENCH_MODELS_DIR: options.modelsDir, BENCH_UDF_HOST: host, BENCH_UDF_PORT: String(port) },
    logFile: options.logFile,
  });
  try {
    await process.waitForLine(/BENCH_READY/, options.readyTimeoutMs ?? 120_000);
  } catch (error) {
    await process.stop();
    throw new Error(`UDF server did not start: ${(error as Error).message}\n${process.logTail()}`);
  }
  return { process, host, port };
}
