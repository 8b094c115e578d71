/**
 * What most adapters do to run their product's app: pass it the run's settings as BENCH_*
 * variables, start it as a ManagedProcess, wait for its BENCH_READY line, and hand the runner
 * a RunningProduct over it.
 */
import { createServer } from "node:net";
import type { ConsumedSource, RunContext, RunningProduct } from "./adapter.ts";
import { ManagedProcess, type ManagedProcessOptions } from "./child-process.ts";
import { DEFAULT_GUARANTEE, transactionalIdFor } from "./guarantee.ts";
import { kafkaSettingsEnv } from "./kafka-settings.ts";

/** The variables every app reads: the run's broker, topics, group, guarantee, parallelism, models and client settings. */
type AppSettings = Pick<RunContext, "bootstrap" | "inputTopic" | "outputTopic" | "groupId" | "parallelism" | "modelsDir" | "kafka">;

export function benchAppEnv(ctx: AppSettings & Partial<Pick<RunContext, "guarantee" | "modelServer">>): Record<string, string> {
  const guarantee = ctx.guarantee ?? DEFAULT_GUARANTEE;
  return {
    ...(ctx.modelServer !== undefined ? { BENCH_MODEL_SERVER: ctx.modelServer } : {}),
    BENCH_GUARANTEE: guarantee,
    ...(guarantee === "exactly-once" ? { BENCH_TRANSACTIONAL_ID: transactionalIdFor(ctx.groupId) } : {}),
    ...kafkaSettingsEnv(ctx.kafka),
    BENCH_BOOTSTRAP: ctx.bootstrap,
    BENCH_INPUT_TOPIC: ctx.inputTopic,
    BENCH_OUTPUT_TOPIC: ctx.outputTopic,
    BENCH_GROUP_ID: ctx.groupId,
    BENCH_PARALLELISM: String(ctx.parallelism),
    BENCH_MODELS_DIR: ctx.modelsDir,
    // Python apps: lines reach the log (and BENCH_READY reaches waitForLine) as they are printed.
    PYTHONUNBUFFERED: "1",
  };
}

/** Starts the app and resolves once it prints BENCH_READY; on failure it is stopped and the error carries its log tail. */
export async function startReadyApp(options: ManagedProcessOptions & { name: string; readyTimeoutMs: number }): Promise<ManagedProcess> {
  const app = new ManagedProcess(options);
  try {
    await app.waitForLine(/BENCH_READY/, options.readyTimeoutMs);
  } catch (error) {
    await app.stop();
    throw new Error(`${options.name} did not become ready: ${(error as Error).message}\n${app.logTail()}`);
  }
  return app;
}

/** The RunningProduct over one app process (its whole process group is sampled and stopped). */
export function runningApp(
  app: ManagedProcess,
  opts: { consumed?: ConsumedSource; stopGraceMs?: number } = {},
): RunningProduct {
  return {
    rootPids: () => [app.pid],
    consumed: opts.consumed ?? { kind: "group-offsets" },
    exited: app.exited,
    logTail: (lines) => app.logTail(lines),
    stop: async () => void (await app.stop(opts.stopGraceMs)),
  };
}

/** A free loopback port (for a broker, an API or a UDF server the bench starts). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no free port"))));
    });
  });
}
