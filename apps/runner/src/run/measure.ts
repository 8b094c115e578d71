/**
 * One measured run of one product, as phases in order:
 *
 *   start   fresh topics, the product started against them
 *   verify  the fixtures scored right before any timing (else the run is invalid)
 *   settle  gendata at the offered rate until the backlog has settled
 *   window  the measured seconds (settle and window again if an overload guess was a slow start)
 *   profile where the CPU goes (`--profile` only): profilers attached, gendata still feeding
 *   drain   gendata stopped, the backlog worked off
 *   audit   the whole output read once: lost, duplicated, mis-scored, latency
 *   stop    the product's process tree ended
 *   judge   valid or invalid, quiet or noisy (foreign load, steal); the speed index before and after is recorded
 *
 * A product that exits or hangs gets a failed row with the reason and its log tail.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { FIXTURE_COUNT, KAFKA_SETTINGS, type KafkaAdmin, type Prepared, type Product, type RunningProduct } from "@bench/core";
import { extraRecordsPerRecord, resources, throughput } from "../metrics/derive.ts";
import { profilePhase } from "../profile/window.ts";
import type { HarnessCost, RunResult, Tick } from "../results/types.ts";
import { auditOutputs } from "./audit.ts";
import type { BenchContext } from "./context.ts";
import { GendataProcess } from "./gendata-process.ts";
import { invalidReasons, judgeConditions } from "./judge.ts";
import { MachineWatch } from "./machine.ts";
import { drain, settledWindow } from "./phases.ts";
import { measureSpeedIndex, SPEED_INDEX_VERSION } from "./speed-index.ts";
import { RunTicker } from "./ticker.ts";
import { verifyProduct } from "./verify.ts";

export type { BenchContext } from "./context.ts";

export interface RunSettings {
  rate: number;
  /** The window never starts before this many seconds of gendata. */
  warmupSec: number;
  /** ...and starts at the latest after this many, the run then `unsettled`. */
  settleCapSec: number;
  windowSec: number;
  parallelism: number;
  seed: number;
  /** Longest wait for the backlog to drain after gendata stops. */
  drainTimeoutSec: number;
  /** A product whose consumed count stands still this long with a backlog has hung. */
  hangSec: number;
  /** Seconds of the profiling phase after the window; 0 or absent: none. */
  profileSec?: number;
}


/** Rows of one adapter (node and node-passthrough, turbine and turbine-torch) share one cache folder. */
export function productCacheDir(cacheRoot: string, productId: string): string {
  return join(cacheRoot, productId.split("-")[0] as string);
}

interface RunPlan {
  runDir: string;
  inputTopic: string;
  outputTopic: string;
  groupId: string;
}

function planRun(product: Product, settings: RunSettings, bench: BenchContext): RunPlan {
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const runId = `${product.id}.${settings.rate}.${stamp}`;
  const runDir = join(bench.resultsDir, "runs", `${product.id}-${settings.rate}-${stamp}`);
  mkdirSync(runDir, { recursive: true });
  return { runDir, inputTopic: `bench.${runId}.in`, outputTopic: `bench.${runId}.out`, groupId: `bench.${runId}` };
}

function emptyResult(product: Product, prepared: Prepared, settings: RunSettings): RunResult {
  const { rate: offeredRate, warmupSec, windowSec, parallelism, seed } = settings;
  return {
    product: product.id,
    status: "failed",
    startedAt: new Date().toISOString(),
    settings: { offeredRate, warmupSec, windowSec, parallelism, seed },
    row: product.row,
    versions: prepared.versions,
    deviations: prepared.deviations ?? [],
    notes: product.notes ?? [],
    consumedSource: "",
    gendataWarnings: [],
    ticks: [],
  };
}

export async function measureRun(product: Product, prepared: Prepared, settings: RunSettings, bench: BenchContext): Promise<RunResult> {
  const plan = planRun(product, settings, bench);
  const result = emptyResult(product, prepared, settings);

  // start — the output topic stamps LogAppendTime, so latency ends at the broker, not at a product's clock.
  await bench.admin.createTopics([{ name: plan.inputTopic }, { name: plan.outputTopic, config: { "message.timestamp.type": "LogAppendTime" } }]);
  const topicsBefore = new Set(await bench.admin.listTopics());
  let running: RunningProduct;
  try {
    running = await product.start({ ...plan, bootstrap: bench.bootstrap, kafka: KAFKA_SETTINGS, parallelism: settings.parallelism, repoRoot: bench.repoRoot, modelsDir: bench.modelsDir, cacheDir: productCacheDir(bench.cacheDir, product.id), log: bench.log }, prepared.found);
  } catch (error) {
    result.reason = `did not start: ${(error as Error).message}`;
    return result;
  }
  result.consumedSource = running.consumed.kind === "group-offsets" ? `group offsets (${plan.groupId})` : running.consumed.describe;
  let crashed: string | undefined;
  let stopping = false;
  void running.exited.then((exit) => {
    if (!stopping) crashed = `exited during the run (code ${exit.code}, signal ${exit.signal})`;
  });
  const aborted = (): string | undefined => crashed ?? bench.interrupted();

  let gendata: GendataProcess | undefined;
  let speedBefore = 0;
  try {
    // verify
    result.verification = await verifyProduct({
      bootstrap: bench.bootstrap,
      inputTopic: plan.inputTopic,
      outputTopic: plan.outputTopic,
      fixtures: bench.fixtures,
      tolerance: bench.reference.card.tolerance,
      passthrough: product.passthrough === true,
      timeoutMs: 180_000,
      aborted,
    });
    if (!result.verification.passed) {
      if (crashed) throw new Error(crashed);
      result.status = "invalid";
      result.reason = invalidReasons({ verification: result.verification, undrained: 0, drainTimeoutSec: settings.drainTimeoutSec }).join("; ");
      return result;
    }
    speedBefore = (await measureSpeedIndex()).recordsPerCpuSecond;

    // settle
    const { feed, watch, ticker } = startFeed(product, running, plan, settings, bench, aborted);
    gendata = feed;
    bench.onRunStart?.(product.id, settings.rate, settings.warmupSec + settings.windowSec);
    result.ticks = ticker.ticks;
    result.gendataWarnings = ticker.gendataWarnings;
    // settle, window (a second settle and window when an "overloaded" guess was a slow start)
    const { settled, window } = await settledWindow(ticker, settings.rate, settings.warmupSec, settings.settleCapSec, settings.windowSec);
    result.settleSec = settled.seconds;

    // profile
    if (settings.profileSec) result.profile = await profilePhase({ roots: () => running.rootPids(), rules: product.profileRules, seconds: settings.profileSec, ticker, windowTicks: window.ticks, runDir: plan.runDir, resultsDir: bench.resultsDir, log: bench.log });

    // drain
    const drained = await drain(ticker, feed, settings.drainTimeoutSec);
    if (drained.final && drained.final.failed > 0) result.gendataWarnings.push(`gendata: ${drained.final.failed} records failed (${drained.final.lastError ?? "no detail"})`);
    const extra = await extraRecords(bench.admin, topicsBefore, [plan.inputTopic, plan.outputTopic]);
    Object.assign(result, windowFigures(window.ticks, extra, drained.last.consumed), { harness: harnessCost(ticker.windowHarness, watch.costPercent()) });
    // An overloaded or capped settle is a steady state only for a saturated product.
    result.settled = settled.how === "settled" || (settled.how === "overloaded" && result.throughput?.regime === "saturated");

    // audit
    result.delivery = await auditOutputs({
      bootstrap: bench.bootstrap,
      outputTopic: plan.outputTopic,
      produced: drained.last.inputEnd,
      outputEnd: await bench.admin.endOffset(plan.outputTopic),
      seed: settings.seed,
      reference: bench.reference,
      passthrough: product.passthrough === true,
      tolerance: bench.reference.card.tolerance,
      windowMs: window.produceMs,
    });
    const invalid = invalidReasons({ verification: result.verification, delivery: result.delivery, undrained: drained.undrained, drainTimeoutSec: settings.drainTimeoutSec });
    result.status = invalid.length > 0 ? "invalid" : "ok";
    if (invalid.length > 0) result.reason = invalid.join("; ");
  } catch (error) {
    result.status = "failed";
    result.reason = (error as Error).message;
  } finally {
    // stop
    bench.onRunEnd?.();
    if (gendata) await gendata.stop();
    const tail = running.logTail(25);
    stopping = true;
    await running.stop();
    if (result.status === "failed" && crashed) result.reason = `${crashed}\n--- log tail ---\n${tail}`;
    await bench.admin.deleteTopics([plan.inputTopic, plan.outputTopic]).catch(() => undefined);
  }

  // judge — the speed index after the product has stopped, like the one before it started
  if (result.throughput) {
    const speed = { before: speedBefore, after: (await measureSpeedIndex()).recordsPerCpuSecond, reference: bench.speedReference, version: SPEED_INDEX_VERSION };
    result.conditions = judgeConditions(result.ticks.filter((t) => t.phase === "window"), speed);
  }
  return result;
}

/** gendata at the offered rate, and the once-a-second ticker that watches the product and the machine. */
function startFeed(product: Product, running: RunningProduct, plan: RunPlan, settings: RunSettings, bench: BenchContext, aborted: () => string | undefined) {
  const feed = new GendataProcess({ bootstrap: bench.bootstrap, topic: plan.inputTopic, rate: settings.rate, seed: settings.seed, startSeq: FIXTURE_COUNT, logFile: join(plan.runDir, "gendata.log") });
  const watch = new MachineWatch(() => running.rootPids(), { runner: process.pid, gendata: () => [feed.pid], broker: () => (bench.brokerPid ? [bench.brokerPid] : []) });
  const ticker = new RunTicker({
    admin: bench.admin,
    inputTopic: plan.inputTopic,
    outputTopic: plan.outputTopic,
    readConsumed: async () => (running.consumed.kind === "group-offsets" ? bench.admin.committedOffset(plan.groupId, plan.inputTopic) : running.consumed.read()),
    watch,
    gendata: feed,
    rate: settings.rate,
    hangSec: settings.hangSec,
    aborted,
    onTick: (phase, tick, perSec) => bench.onTick?.(product.id, phase, tick, perSec),
  });
  return { feed, watch, ticker };
}

/** The row's figures from the window's ticks; extra = records the run wrote to other topics. */
function windowFigures(window: Tick[], extra: number, consumedAtEnd: number): Pick<RunResult, "throughput" | "resources" | "selectivity"> {
  const t = { ...throughput(window), extraRecordsPerRecord: extraRecordsPerRecord(extra, consumedAtEnd) };
  return { throughput: t, resources: resources(window), selectivity: t.consumedPerSec > 0 ? t.outputPerSec / t.consumedPerSec : 0 };
}

/** The harness's parts averaged over the window; the sampler is the runner's /proc reading. */
function harnessCost(window: RunTicker["windowHarness"], samplerCpuPercent: number): HarnessCost {
  const avg = (f: (h: (typeof window)[number]) => number): number => (window.length === 0 ? 0 : window.reduce((a, h) => a + f(h), 0) / window.length);
  return { samplerCpuPercent, runnerCpuPercent: avg((h) => h.runner), gendataCpuPercent: avg((h) => h.gendata), brokerCpuPercent: avg((h) => h.broker) };
}

/** Records written during the run to topics other than input and output: broker hops. */
async function extraRecords(admin: KafkaAdmin, before: Set<string>, own: string[]): Promise<number> {
  const created = (await admin.listTopics()).filter((t) => !before.has(t) && !own.includes(t) && !t.startsWith("__"));
  let total = 0;
  for (const topic of created) total += await admin.endOffset(topic);
  return total;
}
