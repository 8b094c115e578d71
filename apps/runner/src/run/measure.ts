/**
 * One measured run of one product: fresh topics -> start -> verify on the fixtures ->
 * gendata at the offered rate -> warmup (discarded) -> window (measured) -> drain -> audit
 * the output -> stop. Every second the product's process tree is sampled and the offsets read.
 * A product that exits, hangs or fails verification gets a failed row with the reason.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import {
  FIXTURE_COUNT,
  TreeSampler,
  type FixtureRow,
  type KafkaAdmin,
  type Preparation,
  type Product,
  type ReferenceModel,
  type RunningProduct,
} from "@bench/core";
import { resources, throughput } from "../metrics/derive.ts";
import type { Phase, RunResult, Tick } from "../results/types.ts";
import { auditOutputs } from "./audit.ts";
import { GendataProcess, type GendataReport } from "./gendata-process.ts";
import { verifyProduct } from "./verify.ts";

export interface RunSettings {
  rate: number;
  warmupSec: number;
  windowSec: number;
  parallelism: number;
  seed: number;
  /** Longest wait for the backlog to drain after gendata stops. */
  drainTimeoutSec: number;
  /** A product whose consumed count stands still this long with a backlog has hung. */
  hangSec: number;
}

export interface BenchContext {
  bootstrap: string;
  brokerPid?: number;
  admin: KafkaAdmin;
  reference: ReferenceModel;
  fixtures: FixtureRow[];
  repoRoot: string;
  modelsDir: string;
  cacheDir: string;
  resultsDir: string;
  log(line: string): void;
  onRunStart?(product: string, rate: number, measuredSeconds: number): void;
  onTick?(product: string, phase: Phase, secondsLeft: number, tick: Tick, offeredNow: number, consumedNow: number): void;
  onRunEnd?(): void;
  /** Set when the user asked the bench to stop (Ctrl-C / SIGTERM). */
  interrupted(): string | undefined;
}

type Prepared = Extract<Preparation, { ok: true }>;

/** Rows of one adapter (node and node-passthrough, turbine and turbine-torch) share one cache folder. */
export function productCacheDir(cacheRoot: string, productId: string): string {
  return join(cacheRoot, productId.split("-")[0] as string);
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function measureRun(product: Product, prepared: Prepared, settings: RunSettings, bench: BenchContext): Promise<RunResult> {
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const runId = `${product.id}.${settings.rate}.${stamp}`;
  const runDir = join(bench.resultsDir, "runs", `${product.id}-${settings.rate}-${stamp}`);
  mkdirSync(runDir, { recursive: true });
  const inputTopic = `bench.${runId}.in`;
  const outputTopic = `bench.${runId}.out`;
  const groupId = `bench.${runId}`;
  const result: RunResult = {
    product: product.id,
    status: "failed",
    startedAt: new Date().toISOString(),
    settings: { offeredRate: settings.rate, warmupSec: settings.warmupSec, windowSec: settings.windowSec, parallelism: settings.parallelism, seed: settings.seed },
    row: product.row,
    versions: prepared.versions,
    deviations: prepared.deviations ?? [],
    notes: product.notes ?? [],
    consumedSource: "",
    gendataWarnings: [],
    ticks: [],
  };

  // The output topic stamps LogAppendTime, so latency ends at the broker, not at a product's clock.
  await bench.admin.createTopics([{ name: inputTopic }, { name: outputTopic, config: { "message.timestamp.type": "LogAppendTime" } }]);
  const topicsBefore = new Set(await bench.admin.listTopics());

  let running: RunningProduct;
  try {
    running = await product.start({
      bootstrap: bench.bootstrap,
      inputTopic,
      outputTopic,
      groupId,
      parallelism: settings.parallelism,
      runDir,
      repoRoot: bench.repoRoot,
      modelsDir: bench.modelsDir,
      cacheDir: productCacheDir(bench.cacheDir, product.id),
      log: bench.log,
    });
  } catch (error) {
    result.reason = `did not start: ${(error as Error).message}`;
    return result;
  }
  result.consumedSource = running.consumed.kind === "group-offsets" ? `group offsets (${groupId})` : running.consumed.describe;
  let crashed: string | undefined;
  let stopping = false;
  void running.exited.then((exit) => {
    if (!stopping) crashed = `exited during the run (code ${exit.code}, signal ${exit.signal})`;
  });
  const abortReason = (): string | undefined => crashed ?? bench.interrupted();

  let gendata: GendataProcess | undefined;
  try {
    const verification = await verifyProduct({
      bootstrap: bench.bootstrap,
      inputTopic,
      outputTopic,
      fixtures: bench.fixtures,
      tolerance: bench.reference.card.tolerance,
      passthrough: product.passthrough === true,
      timeoutMs: 180_000,
      aborted: abortReason,
    });
    result.verification = verification;
    if (!verification.passed) {
      result.reason = `verification failed: ${verification.problem}`;
      return result;
    }

    const readConsumed = async (): Promise<number> =>
      running.consumed.kind === "group-offsets" ? bench.admin.committedOffset(groupId, inputTopic) : running.consumed.read();
    const sampler = new TreeSampler(() => running.rootPids());
    const brokerSampler = bench.brokerPid ? new TreeSampler(() => [bench.brokerPid as number]) : undefined;
    const runnerCpuStart = process.cpuUsage();
    sampler.sample();
    brokerSampler?.sample();

    gendata = new GendataProcess({
      bootstrap: bench.bootstrap,
      topic: inputTopic,
      rate: settings.rate,
      seed: settings.seed,
      startSeq: FIXTURE_COUNT,
      logFile: join(runDir, "gendata.log"),
    });
    bench.onRunStart?.(product.id, settings.rate, settings.warmupSec + settings.windowSec);
    const t0 = performance.now();
    const windowStartS = settings.warmupSec;
    const windowEndS = settings.warmupSec + settings.windowSec;
    let windowMs: [number, number] = [0, 0];
    let gendataAtWindow: [GendataReport | undefined, GendataReport | undefined] = [undefined, undefined];
    const brokerCpu: number[] = [];
    let previous: Tick | undefined;
    let lastProgressAt = 0;
    let behindSeconds = 0;

    for (let second = 1; ; second++) {
      await sleep(Math.max(0, t0 + second * 1000 - performance.now()));
      const abort = abortReason();
      if (abort) throw new Error(abort);
      const elapsed = (performance.now() - t0) / 1000;
      const phase: Phase = elapsed <= windowStartS ? "warmup" : elapsed <= windowEndS + 0.5 ? "window" : "drain";
      const [inputEnd, consumed, outputEnd] = await Promise.all([
        bench.admin.endOffset(inputTopic),
        readConsumed(),
        bench.admin.endOffset(outputTopic),
      ]);
      const s = sampler.sample();
      const b = brokerSampler?.sample();
      const tick: Tick = {
        t: Math.round(elapsed * 100) / 100,
        phase,
        inputEnd,
        consumed,
        outputEnd,
        cpuPercent: s?.cpuPercent ?? 0,
        memMb: s?.memMb ?? 0,
        processes: s?.processes ?? 0,
        instrument: s?.instrument ?? "pss",
      };
      result.ticks.push(tick);
      if (phase === "window" && b) brokerCpu.push(b.cpuPercent);
      if (phase === "window" && windowMs[0] === 0) {
        windowMs = [Date.now() - 1000, 0];
        gendataAtWindow = [gendata.latest(), undefined];
      }

      const report = gendata.latest();
      if (phase !== "drain" && report && report.behind > settings.rate * 0.01) {
        if (++behindSeconds === 3) result.gendataWarnings.push(`gendata fell behind the asked rate by ${report.behind} records at ${tick.t}s`);
      } else behindSeconds = 0;

      if (consumed > (previous?.consumed ?? -1)) lastProgressAt = elapsed;
      else if (consumed < inputEnd && elapsed - lastProgressAt > settings.hangSec) {
        throw new Error(`hung: consumed stayed at ${consumed} for ${settings.hangSec}s with ${inputEnd - consumed} records waiting`);
      }
      const perSec = (a: number, b: number | undefined): number => (previous ? (a - (b ?? 0)) / (tick.t - previous.t) : 0);
      const left = phase === "drain" ? 0 : windowEndS - elapsed;
      bench.onTick?.(product.id, phase, Math.max(0, left), tick, perSec(inputEnd, previous?.inputEnd), perSec(consumed, previous?.consumed));
      previous = tick;

      if (phase === "drain" && windowMs[1] === 0) {
        windowMs[1] = Date.now() - 1000;
        gendataAtWindow[1] = gendata.latest();
        const final = await gendata.stop();
        if (final && final.failed > 0) result.gendataWarnings.push(`gendata: ${final.failed} records failed (${final.lastError ?? "no detail"})`);
      }
      if (phase === "drain") {
        const drained = consumed >= inputEnd;
        if (drained || elapsed - windowEndS > settings.drainTimeoutSec) {
          if (!drained) result.gendataWarnings.push(`backlog of ${inputEnd - consumed} records not drained within ${settings.drainTimeoutSec}s`);
          break;
        }
      }
    }

    const window = result.ticks.filter((t) => t.phase === "window");
    const extra = await extraRecords(bench.admin, topicsBefore, [inputTopic, outputTopic]);
    const lastConsumed = result.ticks[result.ticks.length - 1]?.consumed ?? 0;
    result.throughput = { ...throughput(window, 0), extraRecordsPerRecord: lastConsumed > 0 ? extra / lastConsumed : 0 };
    result.resources = resources(window);
    result.selectivity = result.throughput.consumedPerSec > 0 ? result.throughput.outputPerSec / result.throughput.consumedPerSec : 0;
    const runnerCpu = process.cpuUsage(runnerCpuStart);
    const gd = gendataAtWindow;
    result.harness = {
      samplerCpuPercent: sampler.cost().cpuPercent,
      runnerCpuPercent: ((runnerCpu.user + runnerCpu.system) / 1e6 / ((performance.now() - t0) / 1000)) * 100,
      gendataCpuPercent: gd[0] && gd[1] && gd[1].t > gd[0].t ? ((gd[1].cpuSeconds - gd[0].cpuSeconds) / (gd[1].t - gd[0].t)) * 100 : 0,
      brokerCpuPercent: brokerCpu.length > 0 ? brokerCpu.reduce((a, b) => a + b, 0) / brokerCpu.length : 0,
    };

    const last = result.ticks[result.ticks.length - 1] as Tick;
    result.delivery = await auditOutputs({
      bootstrap: bench.bootstrap,
      outputTopic,
      produced: last.inputEnd,
      outputEnd: await bench.admin.endOffset(outputTopic),
      seed: settings.seed,
      reference: bench.reference,
      passthrough: product.passthrough === true,
      windowMs,
    });
    result.status = "ok";
  } catch (error) {
    result.reason = (error as Error).message;
  } finally {
    bench.onRunEnd?.();
    if (gendata) await gendata.stop();
    const tail = running.logTail(25);
    stopping = true;
    await running.stop();
    if (result.status === "failed" && crashed) result.reason = `${crashed}\n--- log tail ---\n${tail}`;
    await bench.admin.deleteTopics([inputTopic, outputTopic]).catch(() => undefined);
  }
  return result;
}

/** Records written during the run to topics other than input and output: broker hops. */
async function extraRecords(admin: KafkaAdmin, before: Set<string>, own: string[]): Promise<number> {
  const created = (await admin.listTopics()).filter((t) => !before.has(t) && !own.includes(t) && !t.startsWith("__"));
  let total = 0;
  for (const topic of created) total += await admin.endOffset(topic);
  return total;
}
