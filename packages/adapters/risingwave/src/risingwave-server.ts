/**
 * The RisingWave server: started here from RISINGWAVE_BIN in single-node mode (meta, compute,
 * frontend and compactor in one process, listening on the fixed local ports 5690, 5688, 6660,
 * 5691, 6786 and 4560 and the frontend port we choose), or an already running one at
 * RISINGWAVE_URL.
 */
import { mkdirSync } from "node:fs";
import { execa } from "execa";
import pg from "pg";
import { ManagedProcess } from "@bench/core";
import { parseRisingWaveVersion } from "./locate.ts";

/** RisingWave's default database and superuser. */
export const singleNodeUrl = (port: number): string => `postgres://root@127.0.0.1:${port}/dev`;

export async function binaryVersion(bin: string): Promise<string | undefined> {
  const result = await execa(bin, ["--version"], { reject: false, all: true, timeout: 30_000 });
  return parseRisingWaveVersion(String(result.all ?? ""));
}

export async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  client.on("error", () => {
    // A dropped connection surfaces on the next query; without a listener it would crash the runner.
  });
  await client.connect();
  return client;
}

export async function serverVersion(client: pg.Client): Promise<string | undefined> {
  const { rows } = await client.query<{ version: string }>("SELECT version() AS version");
  return parseRisingWaveVersion(rows[0]?.version ?? "");
}

/** Polls until the frontend answers SQL (the meta node and compute node register first). */
export async function waitForSql(url: string, timeoutMs: number, alive: () => boolean): Promise<pg.Client> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    if (!alive()) throw new Error(`RisingWave exited before accepting SQL at ${url}`);
    try {
      const client = await connect(url);
      await client.query("SELECT 1");
      return client;
    } catch (error) {
      last = error;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  throw new Error(`RisingWave did not accept SQL at ${url} within ${timeoutMs / 1000}s: ${(last as Error)?.message}`);
}

/** One row of rw_catalog.rw_worker_nodes, the columns this adapter reads. */
export interface WorkerNodeRow {
  type: string;
  state: string;
  is_streaming: boolean | null;
}

/**
 * Compute nodes that can take stream actors. rw_worker_nodes spells the enums with their
 * protobuf names (WorkerType::ComputeNode -> WORKER_TYPE_COMPUTE_NODE, State::Running -> RUNNING).
 */
export function streamingComputeNodes(rows: readonly WorkerNodeRow[]): number {
  return rows.filter((r) => r.type === "WORKER_TYPE_COMPUTE_NODE" && r.state === "RUNNING" && r.is_streaming !== false).length;
}

/**
 * single_node starts the frontend and the compute node side by side, so SELECT 1 can answer
 * before a compute node has registered with meta; a CREATE SINK then has nowhere to schedule
 * its actors. Waits until one has.
 */
export async function waitForComputeNode(client: pg.Client, timeoutMs: number, alive: () => boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let seen: WorkerNodeRow[] = [];
  while (Date.now() < deadline) {
    if (!alive()) throw new Error("RisingWave exited before a compute node registered");
    const { rows } = await client.query<WorkerNodeRow>("SELECT type, state, is_streaming FROM rw_catalog.rw_worker_nodes");
    seen = rows;
    if (streamingComputeNodes(rows) > 0) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`no running streaming compute node in rw_worker_nodes within ${timeoutMs / 1000}s: ${JSON.stringify(seen)}`);
}

export interface SingleNodeOptions {
  bin: string;
  /** Meta store and state store (hummock+fs) of this run: fresh, so no job of a previous run comes back. */
  storeDir: string;
  frontendPort: number;
  /** Compute parallelism registered with meta: the most streaming_parallelism can ask for. */
  parallelism: number;
  logFile: string;
}

export function startSingleNode(options: SingleNodeOptions): ManagedProcess {
  mkdirSync(options.storeDir, { recursive: true });
  return new ManagedProcess({
    command: options.bin,
    args: [
      "single_node",
      "--store-directory",
      options.storeDir,
      "--listen-addr",
      `127.0.0.1:${options.frontendPort}`,
      "--parallelism",
      String(options.parallelism),
    ],
    logFile: options.logFile,
  });
}
