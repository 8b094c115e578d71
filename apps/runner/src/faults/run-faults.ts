/**
 * One faults run of one product, built on a measured run's pieces (start, verify, ticker,
 * audit): fresh topics; the product started and verified; gendata at the offered rate with a
 * seeded set of poison pills among its records; mid-window the product's whole process tree
 * killed with SIGKILL and started again against the same topics and consumer group; gendata
 * stopped at the window's end; the backlog drained; the whole output topic accounted for.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { FIXTURE_COUNT, POISON_KINDS, killTree, poisonSchedule, type Prepared, type Product } from "@bench/core";
import type { FaultResult, Tick } from "../results/types.ts";
import type { BenchContext } from "../run/context.ts";
import { planRun, RunSession, type RunBasics } from "../run/session.ts";
import type { RunTicker } from "../run/ticker.ts";
import { isDrainedAfterKill } from "./drained.ts";
import { auditOutput, ownAndForeign } from "./audit-output.ts";
import { inScenarioFrame, scenarioRow, type Topics } from "./scenario-frame.ts";

export interface FaultSettings extends RunBasics {
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

function emptyFault(product: Product, prepared: Prepared, settings: FaultSettings): FaultResult {
  return {
    ...scenarioRow(product, prepared),
    status: "failed",
    startedAt: new Date().toISOString(),
    settings: {
      offeredRate: settings.rate,
      warmupSec: settings.warmupSec,
      windowSec: settings.windowSec,
      parallelism: settings.parallelism,
      seed: settings.seed,
      poisonRounds: settings.poisonRounds,
    },
    ...(product.passthrough ? { passthrough: true } : {}),
    pills: 0,
    survivedPills: false,
    ticks: [],
  };
}

export async function runFaults(
  product: Product,
  prepared: Prepared,
  settings: FaultSettings,
  bench: BenchContext,
): Promise<FaultResult & Topics> {
  const plan = planRun(product.id, "faults", bench.resultsDir);
  const session = new RunSession(product, prepared, plan, { ...settings }, bench);
  const result = emptyFault(product, prepared, settings);
  return inScenarioFrame(session, result, {
    keepTopics: settings.keepTopics,
    notFaulted: "it was not faulted",
    crashed: (crashed) => `${crashed}${result.survivedPills ? " after the restart" : " before the kill: it did not survive the pills"}`,
  }, () => faultedPhases(session, result));
}

/** pills, kill -9 and restart, the rest of the window, drain, tally: what a faults run adds. */
async function faultedPhases(session: RunSession, result: FaultResult): Promise<void> {
  const settings = session.basics as FaultSettings;
  // The pills go among the records of the warmup and the window's first half: the product
  // has met every one before the kill, so "survived" is read before the kill muddies it.
  const killAtSec = settings.warmupSec + Math.floor(settings.windowSec / 2);
  const pillCount = POISON_KINDS.length * settings.poisonRounds;
  const poison = { rounds: settings.poisonRounds, from: FIXTURE_COUNT + settings.rate, span: Math.max(pillCount, settings.rate * Math.max(1, killAtSec - 2)) };
  const { feed, ticker } = session.feed({ hangSec: settings.hangSec + RESTART_ALLOWANCE_SEC, poison });
  result.ticks = ticker.ticks;

  // Seconds on gendata's own clock: on a busy machine its process takes seconds to start.
  const fed = (): number => feed.latest()?.t ?? 0;
  let last: Tick | undefined;
  while (fed() < killAtSec || (feed.latest()?.poisonSent ?? 0) < pillCount) {
    if (ticker.elapsed() > killAtSec + 60) throw new Error(
      `gendata had not sent its ${pillCount} pills ${killAtSec + 60}s in (gendata log: ${feed.logTail()})`,
    );
    last = await ticker.next(fed() < settings.warmupSec ? "settle" : "window");
  }
  result.survivedPills = true;
  const backlogBefore = last ? last.inputEnd - last.consumed : 0;

  const { killedAt, endWatch, firstOutput } = await killAndRestart(session, ticker, result);

  let drainedAt: number | undefined;
  const drainedBy = (tick: Tick): void => {
    const point = { sinceKill: tick.t - killedAt, backlog: tick.inputEnd - tick.consumed };
    if (drainedAt === undefined && isDrainedAfterKill(point, firstOutput(), Math.max(backlogBefore, settings.rate))) drainedAt = point.sinceKill;
  };
  while (fed() < settings.warmupSec + settings.windowSec) drainedBy(await ticker.next("window"));

  // drain: gendata stopped; wait until every input record is consumed and the output is still.
  const final = await feed.stop();
  const gaveUp = feed.gaveUp();
  if (gaveUp !== undefined) throw new Error(gaveUp);
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
  await endWatch();
  const first = firstOutput();
  if (first !== undefined) result.firstOutputSec = round1(first);
  const pills = poisonSchedule({ seed: settings.seed, rounds: settings.poisonRounds, firstSeq: poison.from, span: poison.span });
  const { produced, foreign } = await ownAndForeign(session.bench, session.plan.inputTopic, tick.inputEnd, final, pills);
  await tallyOutputs(session, result, produced, final?.poisonSent ?? pillCount);
  if (foreign && result.tally) result.tally.foreign = foreign;
}

/**
 * kill -9 of every process in the product's tree at once, then the adapter starts it again
 * against the same topics and group; a watch notes when the restarted product's first output lands.
 */
async function killAndRestart(
  session: RunSession,
  ticker: RunTicker,
  result: FaultResult,
): Promise<{ killedAt: number; endWatch: () => Promise<void>; firstOutput: () => number | undefined }> {
  const { bench, plan } = session;
  const running = session.running!;
  session.expectExit();
  const killedAt = ticker.elapsed();
  const victims = killTree(running.rootPids());
  result.kill = { atSec: Math.round(killedAt * 10) / 10, processes: victims.length };
  await Promise.race([running.exited, sleep(15_000)]);
  const outputAtKill = await bench.admin.endOffset(plan.outputTopic);
  let firstOutput: number | undefined;
  let stop = false;
  const firstOutputWatch = (async () => {
    while (firstOutput === undefined && !stop && !session.crashed) {
      if ((await bench.admin.endOffset(plan.outputTopic).catch(() => outputAtKill)) > outputAtKill) firstOutput = ticker.elapsed() - killedAt;
      else await sleep(100);
    }
  })();
  const endWatch = async (): Promise<void> => {
    stop = true;
    await firstOutputWatch.catch(() => undefined);
  };
  try {
    const restartDir = join(plan.runDir, "restart");
    mkdirSync(restartDir, { recursive: true });
    await session.start(restartDir);
  } catch (error) {
    await endWatch();
    throw error;
  }
  result.restartSec = round1(ticker.elapsed() - killedAt);
  ticker.restartHangClock();
  return { killedAt, endWatch, firstOutput: () => firstOutput };
}

/** audit: every good id accounted for; pills told apart. */
async function tallyOutputs(session: RunSession, result: FaultResult, produced: number, pills: number): Promise<void> {
  const { bench, plan, product } = session;
  const settings = session.basics as FaultSettings;
  result.pills = pills;
  const counted = await auditOutput(bench, plan.outputTopic, produced);
  result.tally = counted;
  // An output that is not JSON at all can only be a pill republished as it came (seen: the passthrough row).
  result.pillsSkipped = Math.max(0, result.pills - counted.poisonOut - counted.unreadable);
  result.extraRecords = await session.extraRecords();
  result.status = "ok";
  if ((result.undrained ?? 0) > 0) {
    // Records still waiting are not lost yet: the run says it did not drain, and no loss is claimed.
    result.status = "invalid";
    result.reason = `${result.undrained} records not consumed ${settings.drainTimeoutSec}s after gendata stopped`;
  } else if (counted.lost > 0) {
    result.lossMechanism = product.lossUnderKill ?? "not explained by the product's delivery path as configured: see the lost ranges";
  }
}

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}
