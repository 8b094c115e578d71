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
import { KAFKA_SETTINGS, misreadSeqs, productNotes, type Prepared, type Product } from "@bench/core";
import { extraRecordsPerRecord, resources, throughput } from "../metrics/derive.ts";
import type { WindowStopRule } from "../metrics/window-stop.ts";
import { profilePhase } from "../profile/window.ts";
import type { HarnessCost, RunResult, Tick, VerificationResult } from "../results/types.ts";
import { foreignInput, ownInputCount } from "./audit-foreign.ts";
import { auditOutputs } from "./audit.ts";
import type { BenchContext } from "./context.ts";
import { invalidReasons, judgeConditions } from "./judge.ts";
import { drain, settledWindow } from "./phases.ts";
import { settleRuleFor } from "../metrics/settle.ts";
import { planRun, RunSession, type RunBasics } from "./session.ts";
import { SPEED_INDEX_VERSION, speedReadings } from "./speed-index.ts";
import { runtimeReading, runYardstick } from "../yardstick/read.ts";
import type { RunTicker } from "./ticker.ts";

export type { BenchContext } from "./context.ts";

export interface RunSettings extends RunBasics {
  /** ...the window starts at the latest after this many seconds, the run then `unsettled`. */
  settleCapSec: number;
  /** Seconds of the profiling phase after the window; 0 or absent: none. */
  profileSec?: number;
  /** Set: the window ends when its figure is known (metrics/window-stop.ts) instead of after windowSec. */
  windowRule?: WindowStopRule;
}

export function emptyResult(product: Product, prepared: Prepared, settings: RunSettings): RunResult {
  const { rate: offeredRate, warmupSec, windowSec, parallelism, seed } = settings;
  return {
    product: product.id,
    ...(product.family ? { family: product.family } : {}),
    ...(product.passthrough ? { passthrough: true } : {}),
    ...(product.floorFor ? { floorFor: product.floorFor } : {}),
    status: "failed",
    startedAt: new Date().toISOString(),
    settings: { offeredRate, warmupSec, windowSec, parallelism, seed },
    row: product.row,
    versions: prepared.versions,
    deviations: prepared.deviations ?? [],
    notes: productNotes(product),
    kafka: KAFKA_SETTINGS,
    consumedSource: "",
    gendataWarnings: [],
    ticks: [],
  };
}

/** What a kind of run adds to the skeleton `shapedRun` puts around it. */
export interface RunShape {
  gate(): Promise<VerificationResult>;
  /** The timed part, into the result. */
  phases(): Promise<void>;
}

/**
 * start, gate, the shape's phases, stop, judge: a product that exits or hangs gets a failed row
 * with the reason and its log tail; the speed index nearest before and after is recorded.
 */
export async function shapedRun(session: RunSession, result: RunResult, shape: RunShape): Promise<RunResult> {
  const { bench, basics } = session;
  const speedIndex = speedReadings(bench);
  await session.createTopics();
  let speedBefore = 0;
  let runtimesBefore = {};
  try {
    const running = await session.start();
    result.consumedSource = running.consumed.kind === "group-offsets" ? `group offsets (${session.plan.groupId})` : running.consumed.describe;
    if (running.remoteResources) result.remoteResources = running.remoteResources.describe;
    result.verification = await shape.gate();
    if (!result.verification.passed) {
      // A gate cut short by a crash or by the bench's own interruption says nothing of the scores.
      const cutShort = session.crashed ?? bench.interrupted();
      if (cutShort) throw new Error(cutShort);
      result.status = "invalid";
      result.reason = invalidReasons({ verification: result.verification, undrained: 0, drainTimeoutSec: basics.drainTimeoutSec }).join("; ");
      return result;
    }
    speedBefore = await speedIndex.before();
    runtimesBefore = await runtimeReading(bench);
    await shape.phases();
  } catch (error) {
    result.status = "failed";
    result.reason = (error as Error).message;
  } finally {
    const tail = session.running?.logTail(25) ?? "";
    const crashed = session.crashed;
    await session.teardown();
    if (result.status === "failed" && crashed) result.reason = `${crashed}\n--- log tail ---\n${tail}`;
  }

  // judge — the speed index after the product has stopped, like the one before it started
  if (result.throughput) {
    const speed = { before: speedBefore, after: await speedIndex.after(), reference: bench.speedReference, version: SPEED_INDEX_VERSION };
    result.conditions = judgeConditions(result.ticks.filter((t) => t.phase === "window"), speed);
    result.yardstick = runYardstick(runtimesBefore, await runtimeReading(bench), result);
  }
  return result;
}

export async function measureRun(product: Product, prepared: Prepared, settings: RunSettings, bench: BenchContext): Promise<RunResult> {
  const session = new RunSession(product, prepared, planRun(product.id, settings.rate, bench.resultsDir), settings, bench);
  const result = emptyResult(product, prepared, settings);
  return shapedRun(session, result, { gate: () => session.verify(), phases: () => measuredPhases(session, result) });
}

/** settle, window, profile, drain, audit: the timed part of a run, into `result`. */
async function measuredPhases(session: RunSession, result: RunResult): Promise<void> {
  const { bench, product } = session;
  const settings = session.basics as RunSettings;
  const { feed, watch, ticker } = session.feed();
  result.ticks = ticker.ticks;
  result.gendataWarnings = ticker.gendataWarnings;
  // settle, window (a second settle and window when an "overloaded" guess was a slow start)
  const rule = settleRuleFor(settings.warmupSec, settings.settleCapSec, product.microBatchSec);
  const { settled, window } = await settledWindow(ticker, settings.rate, rule, settings.windowRule ?? settings.windowSec);
  result.settleSec = settled.seconds;

  // profile
  if (settings.profileSec) {
    result.profile = await profilePhase(
      {
        roots: () => session.running?.rootPids() ?? [],
        rules: product.profileRules,
        seconds: settings.profileSec,
        ticker,
        windowTicks: window.ticks,
        runDir: session.plan.runDir,
        resultsDir: bench.resultsDir,
        log: bench.log,
      },
    );
  }

  // drain
  const drained = await drain(ticker, feed, settings.drainTimeoutSec);
  if (drained.final && drained.final.failed > 0) result.gendataWarnings.push(
    `gendata: ${drained.final.failed} records failed (${drained.final.lastError ?? "no detail"})`,
  );
  Object.assign(
    result,
    windowFigures(window.ticks, await session.extraRecords(), drained.last.consumed),
    { harness: harnessCost(ticker.windowHarness, watch.costPercent()) },
  );
  // An overloaded or capped settle is a steady state only for a saturated product.
  result.settled = settled.how === "settled" || (settled.how === "overloaded" && result.throughput?.regime === "saturated");

  // audit: the bench's own records (audit-foreign.ts); foreign ones are reported apart, never lost
  const own = ownInputCount(drained.final);
  const produced = Math.min(drained.last.inputEnd, own ?? Number.POSITIVE_INFINITY);
  const foreign = own === undefined
    ? undefined
    : await foreignInput(bench.bootstrap, session.plan.inputTopic, { inputEnd: drained.last.inputEnd, own, produced });
  result.delivery = await auditOutputs({
    bootstrap: bench.bootstrap,
    outputTopic: session.plan.outputTopic,
    produced,
    outputEnd: await bench.admin.endOffset(session.plan.outputTopic),
    seed: settings.seed,
    reference: bench.reference,
    passthrough: product.passthrough === true,
    tolerance: bench.reference.card.tolerance,
    unscored: misreadSeqs(product.spellingFindings, bench.fixtures),
    windowMs: window.produceMs,
    ...(bench.outputReader !== undefined ? { reader: bench.outputReader } : {}),
    transactional: bench.guarantee === "exactly-once",
  });
  if (foreign) result.delivery.foreign = foreign;
  const invalid = invalidReasons(
    {
      verification: result.verification!, delivery: result.delivery, undrained: drained.undrained, drainTimeoutSec: settings.drainTimeoutSec,
      guarantee: bench.guarantee,
    },
  );
  result.status = invalid.length > 0 ? "invalid" : "ok";
  if (invalid.length > 0) result.reason = invalid.join("; ");
}

/** The row's figures from the window's ticks; extra = records the run wrote to other topics. */
export function windowFigures(
  window: Tick[],
  extra: number,
  consumedAtEnd: number,
  consumed?: (window: readonly Tick[]) => number,
): Pick<RunResult, "throughput" | "resources" | "selectivity"> {
  const t = { ...throughput(window, consumed), extraRecordsPerRecord: extraRecordsPerRecord(extra, consumedAtEnd) };
  return { throughput: t, resources: resources(window), selectivity: t.consumedPerSec > 0 ? t.outputPerSec / t.consumedPerSec : 0 };
}

/** The harness's parts averaged over the window; the sampler is the runner's /proc reading. */
export function harnessCost(window: RunTicker["windowHarness"], samplerCpuPercent: number): HarnessCost {
  const avg = (f: (h: (typeof window)[number]) => number): number => (window.length === 0 ? 0 : window.reduce((a, h) => a + f(h), 0) / window.length);
  return { samplerCpuPercent, runnerCpuPercent: avg((h) => h.runner), gendataCpuPercent: avg((h) => h.gendata), brokerCpuPercent: avg((h) => h.broker) };
}
