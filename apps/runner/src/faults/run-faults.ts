/**
 * One faults run of one product, built on a measured run's pieces (start, verify, ticker,
 * audit): fresh topics; the product started and verified; gendata at the offered rate with a
 * seeded set of poison pills among its records; mid-window the product's whole process tree
 * killed with SIGKILL and started again against the same topics and consumer group; gendata
 * stopped at the window's end; the backlog drained; the whole output topic accounted for.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { FIXTURE_COUNT, KAFKA_SETTINGS, POISON_KINDS, processTree, readTopic, type KafkaAdmin, type Prepared, type Product, type RunContext, type RunningProduct } from "@bench/core";
import type { FaultResult, Tick } from "../results/types.ts";
import type { BenchContext } from "../run/context.ts";
import { GendataProcess } from "../run/gendata-process.ts";
import { MachineWatch } from "../run/machine.ts";
import { productCacheDir } from "../run/measure.ts";
import { RunTicker } from "../run/ticker.ts";
import { verifyProduct } from "../run/verify.ts";
import { lossMechanism } from "./mechanisms.ts";
import { isDrainedAfterKill } from "./drained.ts";
import { OutputTally } from "./tally.ts";

export interface FaultSettings {
  rate: number;
  /** Seconds of gendata before the window; the pills go in from the first second to the kill. */
  warmupSec: number;
  /** The kill comes at its middle. */
  windowSec: number;
  parallelism: number;
  seed: number;
  drainTimeoutSec: number;
  hangSec: number;
  /** Pills of each kind. */
  poisonRounds: number;
  /** Leave the topics for the caller to read (and delete): a test re-counts from them. */
  keepTopics?: boolean;
}

/**
 * After the restart the hang limit counts from the moment the product is ready; this much more
 * lets a product whose offsets move only on a checkpoint work through the backlog the restart
 * left (its first commit after a restart comes late under load).
 */
const RESTART_ALLOWANCE_SEC = 60;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function runFaults(
  product: Product,
  prepared: Prepared,
  settings: FaultSettings,
  bench: BenchContext,
): Promise<FaultResult & { topics?: { inputTopic: string; outputTopic: string } }> {
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const runId = `${product.id}.faults.${stamp}`;
  const runDir = join(bench.resultsDir, "runs", `${product.id}-faults-${stamp}`);
  mkdirSync(join(runDir, "restart"), { recursive: true });
  const topics = { inputTopic: `bench.${runId}.in`, outputTopic: `bench.${runId}.out`, groupId: `bench.${runId}` };
  const result: FaultResult = {
    product: product.id,
    status: "failed",
    startedAt: new Date().toISOString(),
    settings: { offeredRate: settings.rate, warmupSec: settings.warmupSec, windowSec: settings.windowSec, parallelism: settings.parallelism, seed: settings.seed, poisonRounds: settings.poisonRounds },
    delivery: product.row.delivery,
    ...(product.passthrough ? { passthrough: true } : {}),
    versions: prepared.versions,
    pills: 0,
    survivedPills: false,
    ticks: [],
  };
  const context = (dir: string): RunContext => ({
    ...topics,
    runDir: dir,
    bootstrap: bench.bootstrap,
    kafka: KAFKA_SETTINGS,
    parallelism: settings.parallelism,
    repoRoot: bench.repoRoot,
    modelsDir: bench.modelsDir,
    cacheDir: productCacheDir(bench.cacheDir, product.id),
    log: bench.log,
  });

  await bench.admin.createTopics([{ name: topics.inputTopic }, { name: topics.outputTopic, config: { "message.timestamp.type": "LogAppendTime" } }]);
  const topicsBefore = new Set(await bench.admin.listTopics());
  let running: RunningProduct;
  try {
    running = await product.start(context(runDir), prepared.found);
  } catch (error) {
    result.reason = `did not start: ${(error as Error).message}`;
    await bench.admin.deleteTopics([topics.inputTopic, topics.outputTopic]).catch(() => undefined);
    return result;
  }
  // Which instance is current, and whether its exit is the one we caused.
  let crashed: string | undefined;
  let killing = false;
  let stopping = false;
  const watchExit = (instance: RunningProduct): void => {
    void instance.exited.then((exit) => {
      if (!stopping && !killing && instance === running) crashed = `exited (code ${exit.code}, signal ${exit.signal})`;
    });
  };
  watchExit(running);
  const aborted = (): string | undefined => crashed ?? bench.interrupted();

  let gendata: GendataProcess | undefined;
  try {
    const verification = await verifyProduct({
      bootstrap: bench.bootstrap,
      ...topics,
      fixtures: bench.fixtures,
      tolerance: bench.reference.card.tolerance,
      passthrough: product.passthrough === true,
      timeoutMs: 180_000,
      aborted,
    });
    if (!verification.passed) {
      if (crashed) throw new Error(crashed);
      result.status = "invalid";
      result.reason = "did not score the fixtures right, so it was not faulted";
      return result;
    }

    // The pills go among the records of the warmup and the window's first half: the product
    // has met every one before the kill, so "survived" is read before the kill muddies it.
    const killAtSec = settings.warmupSec + Math.floor(settings.windowSec / 2);
    const pillCount = POISON_KINDS.length * settings.poisonRounds;
    const poison = { rounds: settings.poisonRounds, from: FIXTURE_COUNT + settings.rate, span: Math.max(pillCount, settings.rate * Math.max(1, killAtSec - 2)) };
    const feed = new GendataProcess({ bootstrap: bench.bootstrap, topic: topics.inputTopic, rate: settings.rate, seed: settings.seed, startSeq: FIXTURE_COUNT, logFile: join(runDir, "gendata.log"), poison });
    gendata = feed;
    const watch = new MachineWatch(() => running.rootPids(), { runner: process.pid, gendata: () => [feed.pid], broker: () => (bench.brokerPid ? [bench.brokerPid] : []) });
    const readConsumed = async (): Promise<number> =>
      running.consumed.kind === "group-offsets" ? bench.admin.committedOffset(topics.groupId, topics.inputTopic) : running.consumed.read();
    const ticker = new RunTicker({
      admin: bench.admin,
      inputTopic: topics.inputTopic,
      outputTopic: topics.outputTopic,
      readConsumed,
      watch,
      gendata: feed,
      rate: settings.rate,
      hangSec: settings.hangSec + RESTART_ALLOWANCE_SEC,
      aborted,
      onTick: (phase, tick, perSec) => bench.onTick?.(product.id, phase, tick, perSec),
    });
    result.ticks = ticker.ticks;
    bench.onRunStart?.(product.id, settings.rate, settings.warmupSec + settings.windowSec);

    // Seconds on gendata's own clock: on a busy machine its process takes seconds to start.
    const fed = (): number => feed.latest()?.t ?? 0;
    let last: Tick | undefined;
    while (fed() < killAtSec || (feed.latest()?.poisonSent ?? 0) < pillCount) {
      if (ticker.elapsed() > killAtSec + 60) throw new Error(`gendata had not sent its ${pillCount} pills ${killAtSec + 60}s in (gendata log: ${feed.logTail()})`);
      last = await ticker.next(fed() < settings.warmupSec ? "settle" : "window");
    }
    result.survivedPills = true;
    const backlogBefore = last ? last.inputEnd - last.consumed : 0;

    // kill -9 of every process in the product's tree at once, then the adapter starts it again.
    killing = true;
    const killedAt = ticker.elapsed();
    const victims = processTree(running.rootPids()).map((p) => p.pid);
    for (const pid of victims) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
    result.kill = { atSec: Math.round(killedAt * 10) / 10, processes: victims.length };
    await Promise.race([running.exited, sleep(15_000)]);
    const outputAtKill = await bench.admin.endOffset(topics.outputTopic);
    let firstOutput: number | undefined;
    const firstOutputWatch = (async () => {
      while (firstOutput === undefined && !stopping && !crashed) {
        if ((await bench.admin.endOffset(topics.outputTopic).catch(() => outputAtKill)) > outputAtKill) firstOutput = ticker.elapsed() - killedAt;
        else await sleep(100);
      }
    })();
    const restarted = await product.start(context(join(runDir, "restart")), prepared.found);
    running = restarted;
    killing = false;
    watchExit(restarted);
    result.restartSec = round1(ticker.elapsed() - killedAt);
    ticker.restartHangClock();

    let drainedAt: number | undefined;
    const drainedBy = (tick: Tick): void => {
      const point = { sinceKill: tick.t - killedAt, backlog: tick.inputEnd - tick.consumed };
      if (drainedAt === undefined && isDrainedAfterKill(point, firstOutput, Math.max(backlogBefore, settings.rate))) drainedAt = point.sinceKill;
    };
    while (fed() < settings.warmupSec + settings.windowSec) drainedBy(await ticker.next("window"));

    // drain: gendata stopped; wait until every input record is consumed and the output is still.
    const final = await feed.stop();
    const started = ticker.elapsed();
    let tick = await ticker.next("drain");
    for (;;) {
      drainedBy(tick);
      const next = await ticker.next("drain");
      const done = next.consumed >= next.inputEnd && next.outputEnd === tick.outputEnd;
      tick = next;
      if (done || ticker.elapsed() - started > settings.drainTimeoutSec) break;
    }
    drainedBy(tick);
    result.undrained = Math.max(0, tick.inputEnd - tick.consumed);
    if (drainedAt !== undefined) result.drainedSec = round1(drainedAt);
    await firstOutputWatch.catch(() => undefined);
    if (firstOutput !== undefined) result.firstOutputSec = round1(firstOutput);

    // audit: every good id accounted for; pills told apart.
    result.pills = final?.poisonSent ?? pillCount;
    const produced = tick.inputEnd - result.pills;
    const tally = new OutputTally(produced);
    const outputEnd = await bench.admin.endOffset(topics.outputTopic);
    await readTopic(bench.bootstrap, topics.outputTopic, (batch) => batch.forEach((m) => tally.add(m.value)), { stopAt: outputEnd, idleMs: 10_000 });
    const counted = tally.result();
    counted.lostRanges = counted.lostRanges.slice(0, 20);
    result.tally = counted;
    // An output that is not JSON at all can only be a pill republished as it came (seen: node-passthrough).
    result.pillsSkipped = Math.max(0, result.pills - counted.poisonOut - counted.unreadable);
    result.extraRecords = await extraRecords(bench.admin, topicsBefore, [topics.inputTopic, topics.outputTopic]);
    result.status = "ok";
    if (result.undrained > 0) {
      // Records still waiting are not lost yet: the run says it did not drain, and no loss is claimed.
      result.status = "invalid";
      result.reason = `${result.undrained} records not consumed ${settings.drainTimeoutSec}s after gendata stopped`;
    } else if (counted.lost > 0) {
      result.lossMechanism = lossMechanism(product.id) ?? "not explained by the product's delivery path as configured: see the lost ranges";
    }
  } catch (error) {
    result.status = "failed";
    result.reason = (error as Error).message;
    if (crashed) result.reason = `${crashed}${result.survivedPills ? " after the restart" : " before the kill: it did not survive the pills"}\n--- log tail ---\n${running.logTail(25)}`;
  } finally {
    bench.onRunEnd?.();
    stopping = true;
    if (gendata) await gendata.stop();
    await running.stop();
    if (!settings.keepTopics) await bench.admin.deleteTopics([topics.inputTopic, topics.outputTopic]).catch(() => undefined);
  }
  return { ...result, ...(settings.keepTopics ? { topics } : {}) };
}

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}

/** Records written during the run to topics other than input and output: dead letters, hops. */
async function extraRecords(admin: KafkaAdmin, before: Set<string>, own: string[]): Promise<number> {
  const created = (await admin.listTopics()).filter((t) => !before.has(t) && !own.includes(t) && !t.startsWith("__"));
  let total = 0;
  for (const topic of created) total += await admin.endOffset(topic);
  return total;
}
