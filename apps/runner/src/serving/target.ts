/**
 * The model server a served bench calls: the bench's own (prepared into the cache, started before the
 * first row and stopped with the bench, its process tree sampled beside each row's so its CPU and
 * memory count as the row's cost), or a user's (`--model-server`), which the bench only calls and
 * cannot see: its CPU is outside every figure, and the results say so.
 */
import { join } from "node:path";
import { ModelServer, prepareModelServer, type ModelServerFacts, type Serving } from "@bench/core";

/** What the results keep of a served bench's server. */
export type ServingRecord =
  | { serving: "served"; server: "bench"; facts: ModelServerFacts; address: string; cpuCounted: true }
  | { serving: "served"; server: "user"; address: string; cpuCounted: false; why: string };

export interface ServingTarget {
  /** The gRPC address rows call. */
  address(): string;
  /** Roots of the server's process trees to sample beside a row's; none for a user's server. */
  rootPids(): number[];
  record: ServingRecord;
  /** The bench's server only: kill -9 of its tree, down downMs, started again on the same ports (BenchContext.killModelServer). */
  killAndRestart?(how: { downMs: number }): Promise<{ killedAt: number; upAt: number }>;
  /** Ends the bench's server (a user's is never touched); never throws. */
  stop(): Promise<void>;
}

export const USER_SERVER_UNSEEN =
  "a server given with --model-server runs where the bench cannot sample it: the rows' figures hold their own CPU and memory only, not the server's";

export interface ServingOptions {
  serving: Serving;
  /** `--model-server`: the gRPC address ("host:port") of a running server. */
  modelServer?: string;
  cacheRoot: string;
  modelsDir: string;
  model: string;
  resultsDir: string;
  log(line: string): void;
}

/** Nothing when embedded; the user's server as given; or the bench's own, prepared and started (an Error with the reason when it cannot). */
export async function startServing(opts: ServingOptions): Promise<ServingTarget | undefined> {
  if (opts.serving === "embedded") return undefined;
  if (opts.modelServer !== undefined) {
    const address = opts.modelServer;
    opts.log(`bench: served by the model server at ${address} (--model-server): ${USER_SERVER_UNSEEN}`);
    return {
      address: () => address,
      rootPids: () => [],
      record: { serving: "served", server: "user", address, cpuCounted: false, why: USER_SERVER_UNSEEN },
      stop: async () => undefined,
    };
  }
  const prepared = await prepareModelServer({ cacheRoot: opts.cacheRoot, modelsDir: opts.modelsDir, log: opts.log });
  if (!prepared.ok) throw new Error(prepared.reason);
  const server = new ModelServer({ python: prepared.python, modelsDir: opts.modelsDir, model: opts.model, logFile: join(opts.resultsDir, "model-server.log") });
  await server.start();
  opts.log(`bench: model server ${prepared.facts.server} ${prepared.facts.version} (${prepared.facts.backend}) at ${server.grpcTarget}`);
  return {
    address: () => server.grpcTarget,
    rootPids: () => server.rootPids(),
    record: { serving: "served", server: "bench", facts: prepared.facts, address: server.grpcTarget, cpuCounted: true },
    killAndRestart: (how) => killAndRestart(server, how),
    stop: () => server.stop(),
  };
}

/**
 * A fault: the server's whole tree killed with SIGKILL, kept down `downMs`, then started again on
 * the ports of its first start, so the rows' clients find it at the same address. Times are
 * Date.now(): when the kill was sent, and when the server answered ready again.
 */
export async function killAndRestart(server: ModelServer, how: { downMs: number }): Promise<{ killedAt: number; upAt: number }> {
  const killedAt = Date.now();
  await server.kill();
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, killedAt + how.downMs - Date.now())));
  await server.start();
  return { killedAt, upAt: Date.now() };
}
