/**
 * The risingwave row: an external RisingWave server (single-node) reads the input topic with
 * its Kafka source, calls the model in the Arrow Flight UDF server once per chunk, and writes
 * the scores with its Kafka sink. Both processes are ours to sample when RISINGWAVE_BIN is
 * given; with RISINGWAVE_URL the server belongs to the user.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  debianTorchPrerequisites,
  freePort,
  missingReason,
  prepareDebianTorchEnv,
  type ManagedProcess,
  type Preparation,
  type PrepareContext,
  type Prerequisite,
  type Product,
  type RunContext,
  type RunningProduct,
} from "@bench/core";
import type pg from "pg";
import { ENV_BIN, ENV_URL, locateRisingWave, locationCheck, missingLocation, type RisingWaveLocation } from "./locate.ts";
import { consumedFromRows, pickSourceStateTable } from "./offsets.ts";
import { binaryVersion, connect, serverVersion, singleNodeUrl, startSingleNode, waitForComputeNode, waitForSql } from "./risingwave-server.ts";
import { pipelineNames, pipelineSql, teardownSql } from "./sql.ts";
import { PYTHON_ROW } from "./pins.ts";
import { startUdfServer } from "./udf-server.ts";

/** Address RisingWave's compute node uses to reach the UDF server (default 127.0.0.1: same host). */
export const ENV_UDF_HOST = "RISINGWAVE_UDF_HOST";
/** Broker address as RisingWave sees it, when it differs from the bench's (e.g. a container). */
export const ENV_KAFKA = "RISINGWAVE_KAFKA_BOOTSTRAP";
/** With RISINGWAVE_URL: comma-separated pids of the server's processes, so the sampler can see them. */
export const ENV_PIDS = "RISINGWAVE_PIDS";

const READY_TIMEOUT_MS = 180_000;

function describe(where: RisingWaveLocation): string {
  if (where.kind === "binary") return `${ENV_BIN}=${where.path}`;
  if (where.kind === "url") return `${ENV_URL}=${where.url}`;
  return where.reason;
}

function deviations(where: RisingWaveLocation): string[] {
  const out = [
    "consumed/s is an engine counter: the Kafka source's checkpointed offset from RisingWave's source state table (RisingWave does not consume as a " +
      "consumer-group member)",
    "output records carry no Kafka key: a FORMAT PLAIN sink can only key by output columns, and partition_key is not one of event_id, ts_ms, risk",
  ];
  if (where.kind === "binary") out.push("RisingWave runs from a host binary in single-node mode (the seed ran its container)");
  if (where.kind === "url")
    out.push(`RisingWave is a server the user runs (${ENV_URL}); its CPU and memory are sampled only if ${ENV_PIDS} names its processes`);
  return out;
}

/** What start() needs from prepare(): where RisingWave is and the UDF server's interpreter. */
interface Found {
  where: Exclude<RisingWaveLocation, { kind: "none" }>;
  python: string;
}

async function prepare(ctx: PrepareContext): Promise<Preparation<Found>> {
  const where = locateRisingWave(process.env);
  if (where.kind === "none") return { ok: false, reason: missingReason(missingLocation(where)) };

  let risingwave: string | undefined;
  if (where.kind === "binary") {
    risingwave = await binaryVersion(where.path);
    if (!risingwave) return { ok: false, reason: `${where.path} --version did not print a RisingWave version` };
  } else {
    try {
      const client = await connect(where.url);
      try {
        risingwave = await serverVersion(client);
      } finally {
        await client.end();
      }
    } catch (error) {
      return { ok: false, reason: `${ENV_URL}=${where.url} is not reachable: ${(error as Error).message}` };
    }
    if (!risingwave) return { ok: false, reason: `${where.url} answers SQL but SELECT version() names no RisingWave version` };
  }

  const env = await prepareDebianTorchEnv(PYTHON_ROW, ctx);
  if (!env.ok) return { ok: false, reason: `UDF server: ${env.reason}` };
  ctx.log(`risingwave ${risingwave} via ${describe(where)}`);
  return { ok: true, versions: { risingwave, ...env.versions }, deviations: deviations(where), found: { where, python: env.python } };
}

/** The RisingWave server: one started from RISINGWAVE_BIN (single node), or the one at RISINGWAVE_URL; ready once a compute node is up. */
async function connectServer(ctx: RunContext, where: Found["where"]): Promise<{ server?: ManagedProcess; client: pg.Client }> {
  let server: ManagedProcess | undefined;
  let client: pg.Client | undefined;
  try {
    if (where.kind === "binary") {
      const port = await freePort();
      const proc = startSingleNode({
        bin: where.path,
        storeDir: join(ctx.runDir, "risingwave-store"),
        frontendPort: port,
        parallelism: ctx.parallelism,
        logFile: join(ctx.runDir, "risingwave.log"),
      });
      server = proc;
      ctx.log(`RisingWave single-node (pid ${proc.pid}), frontend on 127.0.0.1:${port}`);
      client = await waitForSql(singleNodeUrl(port), READY_TIMEOUT_MS, () => !proc.hasExited);
    } else {
      client = await connect(where.url);
    }
    await waitForComputeNode(client, READY_TIMEOUT_MS, () => !server || !server.hasExited);
    return { ...(server ? { server } : {}), client };
  } catch (error) {
    await client?.end().catch(() => undefined);
    const tail = server?.logTail(40) ?? "";
    await server?.stop();
    throw new Error(`${(error as Error).message}\n${tail}`);
  }
}

/** The source, the UDF and the sink, created in order; the sink's plan is kept in the run's folder. */
async function createPipeline(client: pg.Client, ctx: RunContext, where: Found["where"], prefix: string, statements: string[]): Promise<void> {
  // A shared server may still hold this prefix's objects from a run that died before stop().
  if (where.kind === "url") for (const statement of teardownSql(prefix)) await client.query(statement);
  for (const statement of statements) {
    if (statement.startsWith("CREATE SINK")) {
      // The plan shows how the chunks reach the UDF (which fragments, which exchanges).
      const plan = await client.query<Record<string, string>>(`EXPLAIN ${statement}`).catch((e: Error) => ({ rows: [{ error: e.message }] }));
      const text = plan.rows.map((r) => Object.values(r).join(" ")).join("\n");
      writeFileSync(join(ctx.runDir, "plan.txt"), `${text}\n`);
      ctx.log(`sink plan:\n${text}`);
    }
    await client.query(statement);
  }
}

/** consumed from the sink job's source state table; the last reading is kept once stopped or when a query races a recovery. */
function consumedReader(client: pg.Client, sinkName: string): { read: () => Promise<number>; freeze: () => void } {
  let stateTable: string | undefined;
  let lastConsumed = 0;
  let stopped = false;
  const read = async (): Promise<number> => {
    if (stopped) return lastConsumed;
    try {
      if (!stateTable) {
        const { rows } = await client.query<{ name: string }>("SELECT name FROM rw_catalog.rw_internal_tables");
        stateTable = pickSourceStateTable(rows.map((r) => r.name), sinkName);
        if (!stateTable) return lastConsumed;
      }
      const { rows } = await client.query<{ offset_info: unknown }>(`SELECT offset_info FROM "${stateTable}"`);
      lastConsumed = Math.max(lastConsumed, consumedFromRows(rows));
    } catch {
      // A query racing a recovery or stop(): keep the last reading.
    }
    return lastConsumed;
  };
  return { read, freeze: () => void (stopped = true) };
}

async function start(ctx: RunContext, { where, python }: Found): Promise<RunningProduct> {
  const udfHost = process.env[ENV_UDF_HOST]?.trim();
  const udf = await startUdfServer({
    python,
    modelsDir: ctx.modelsDir,
    logFile: join(ctx.runDir, "udf-server.log"),
    // Reached from another host or container: listen on every interface.
    host: udfHost ? "0.0.0.0" : "127.0.0.1",
  });
  ctx.log(`UDF server on ${udf.host}:${udf.port} (pid ${udf.process.pid})`);
  const { server, client } = await connectServer(ctx, where).catch(async (error: Error) => {
    await udf.process.stop();
    throw error;
  });

  const prefix = `bench_${ctx.groupId}`;
  const names = pipelineNames(prefix);
  const statements = pipelineSql({
    bootstrap: process.env[ENV_KAFKA]?.trim() || ctx.bootstrap,
    inputTopic: ctx.inputTopic,
    outputTopic: ctx.outputTopic,
    parallelism: ctx.parallelism,
    udfLink: `http://${udfHost || "127.0.0.1"}:${udf.port}`,
    prefix,
  });
  writeFileSync(join(ctx.runDir, "pipeline.sql"), statements.map((s) => `${s};\n`).join("\n"));
  const stopAll = async (): Promise<void> => {
    if (where.kind === "url") {
      for (const statement of teardownSql(prefix)) await client.query(statement).catch(() => undefined);
    }
    await client.end().catch(() => undefined);
    await server?.stop();
    await udf.process.stop();
  };
  try {
    await createPipeline(client, ctx, where, prefix, statements);
  } catch (error) {
    const message = `RisingWave rejected the pipeline: ${(error as Error).message}\n${server?.logTail(20) ?? ""}`;
    await stopAll();
    throw new Error(message);
  }
  ctx.log(`pipeline running: ${names.source} -> ${names.func} -> ${names.sink}`);

  const consumed = consumedReader(client, names.sink);
  const extraPids = (process.env[ENV_PIDS] ?? "")
    .split(",")
    .map((p) => Number(p.trim()))
    .filter((p) => Number.isInteger(p) && p > 0);
  let stopped = false;
  return {
    rootPids: () => [...(server ? [server.pid] : extraPids), udf.process.pid],
    consumed: {
      kind: "engine-counter",
      describe: "RisingWave Kafka source offset (last offset read + 1) from the sink job's source state table, checkpointed each barrier",
      read: consumed.read,
    },
    exited: Promise.race([udf.process.exited, ...(server ? [server.exited] : [])]),
    logTail: (lines = 30) =>
      [server ? `--- risingwave ---\n${server.logTail(lines)}` : "", `--- udf server ---\n${udf.process.logTail(lines)}`].filter(Boolean).join("\n"),
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await consumed.read();
      consumed.freeze();
      await stopAll().catch(() => undefined);
    },
  };
}

export const risingwave: Product<Found> = {
  id: "risingwave",
  exactlyOnce: {
    offered: false,
    why: "RisingWave's Kafka sink docs: \"RisingWave only supports writing messages in non-transactional mode\" (at-least-once)",
  },
  // RisingWave's default chunk.
  served: {
    offered: false,
    why: "not wired yet: its Python UDF server scores with the kit's RiskScorer in process; the kit's scorer_for and a " +
      "tritonclient pin checked against its UDF server's would serve it",
  },
  modelCall: { runtime: "torch", records: 256 },
  row: {
    delivery: "at-least-once (checkpointed source offsets + decoupled sink log store; idempotent producer, acks=all)",
    processing: "batch (vectorized SQL; one UDF call and one PyTorch forward per chunk)",
    engine: "external server · Rust (single-node: meta+compute+frontend) + Python Arrow Flight UDF server",
    scaling: "SET streaming_parallelism = N stream actors (in-process); one Kafka partition is one split",
    decode: "schema projection (6 of 19 fields: the 4 model inputs, event_id, ts_ms)",
  },
  notes: [
    "RisingWave cannot run the model in-engine (embedded Python UDFs are off by default and stdlib-only): the model lives in an Arrow Flight UDF server " +
      "(arrow-udf, batch=True, one eager PyTorch forward per chunk) and every chunk crosses that boundary.",
    "arrow-udf boxes every incoming cell to a Python object (as_py) before the function sees it, in batch mode too: the columnar wire format does not " +
      "survive to the model.",
    `No package registry reachable from the bench's machines ships the RisingWave server: the row runs where ${ENV_BIN} (a risingwave binary) or ${ENV_URL} ` +
      `(a running server) is set, and is skipped with that reason elsewhere.`,
  ],
  prepare,
  start,
  // What prepare() asks first: where the server is, then the UDF server's Debian Python and torch.
  prerequisites: async (): Promise<Prerequisite[]> => [locationCheck(locateRisingWave(process.env)), ...(await debianTorchPrerequisites())],
  ci: { rate: 5000 },
};
