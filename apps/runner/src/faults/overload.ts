/**
 * The overload scenario of one product (issue 30): load arrives in bursts above what a job can
 * take, memory grows while the backlog does, and the backlog must then be worked off.
 *
 *   baseline  fresh topics, the product started and verified, gendata at the base rate (the
 *             row's knee when the bench was given one, else the faults rate)
 *   burst     gendata at twice the base rate for BURST_SEC (sequence numbers continuing)
 *   work off  gendata back at the base rate until the backlog is at its baseline level again,
 *             or WORK_OFF_LIMIT_SEC
 *   drain     gendata stopped, the backlog drained; the whole output audited (lost, duplicated)
 *
 * A product that exits is restarted once by the bench, and the result says it did not stay up.
 */
import { FIXTURE_COUNT, type Prepared, type Product } from "@bench/core";
import { join } from "node:path";
import type { OverloadBaseFrom, OverloadResult, Phase, Tick } from "../results/types.ts";
import type { BenchContext } from "../run/context.ts";
import type { FeedFinal } from "../run/audit-foreign.ts";
import { GendataProcess } from "../run/gendata-process.ts";
import { planRun, RunSession, type RunBasics } from "../run/session.ts";
import type { RunTicker } from "../run/ticker.ts";
import { drainAndTally } from "./audit-output.ts";
import { backlogBaseline, overloadFigures } from "./overload-figures.ts";
import { restartProduct, tickRestartingOnce } from "./restart-product.ts";
import { inScenarioFrame, scenarioRow, type Topics } from "./scenario-frame.ts";

/** The burst: twice the base rate for a minute. */
export const BURST_FACTOR = 2;
export const BURST_SEC = 60;
/**
 * At its knee a row has little headroom left to work a backlog off (a minute at twice the knee
 * leaves a minute of the knee's records), so the watch is bounded; a row not back by then says so.
 */
export const WORK_OFF_LIMIT_SEC = 180;
/** Baseline seconds measured after the warmup: the memory and backlog the burst is read against. */
const BASELINE_SEC = 10;

export interface OverloadSettings extends RunBasics {
  baseFrom: OverloadBaseFrom;
  /** Defaults BURST_SEC and WORK_OFF_LIMIT_SEC (a test takes less). */
  burstSec?: number;
  workOffLimitSec?: number;
  keepTopics?: boolean;
}

function emptyResult(product: Product, prepared: Prepared, s: OverloadSettings): OverloadResult {
  return {
    ...scenarioRow(product, prepared),
    status: "failed",
    startedAt: new Date().toISOString(),
    settings: {
      offeredRate: s.rate,
      burstRate: s.rate * BURST_FACTOR,
      burstSec: s.burstSec ?? BURST_SEC,
      workOffLimitSec: s.workOffLimitSec ?? WORK_OFF_LIMIT_SEC,
      parallelism: s.parallelism,
      seed: s.seed,
      baseFrom: s.baseFrom,
    },
    ticks: [],
  };
}

export async function runOverload(product: Product, prepared: Prepared, settings: OverloadSettings, bench: BenchContext): Promise<OverloadResult & Topics> {
  const result = emptyResult(product, prepared, settings);
  const plan = planRun(product.id, "overload", bench.resultsDir);
  const session = new RunSession(product, prepared, plan, { ...settings }, bench);
  return inScenarioFrame(
    session,
    result,
    { keepTopics: settings.keepTopics, notFaulted: "it was not overloaded" },
    () => overloadPhases(new Overload(session, result, settings)),
  );
}

/** The run's state across its phases: the ticker, the gendata feeding now, and where its records continue. */
class Overload {
  ticker!: RunTicker;
  feed!: GendataProcess;
  private nextSeq = FIXTURE_COUNT;
  /** The final reports of the feeds stopped so far: the bench's own input records are their sum (audit-foreign.ts). */
  readonly finals: FeedFinal[] = [];

  constructor(
    readonly session: RunSession,
    readonly result: OverloadResult,
    readonly settings: OverloadSettings,
  ) {}

  /** One tick; a product that exited is restarted once (it did not stay up), a second exit ends the run. */
  tick(phase: Phase): Promise<Tick> {
    return tickRestartingOnce(this.session, this.ticker, phase, (crashed) => (this.result.productRestart ? undefined : this.restart(crashed)));
  }

  private async restart(crashed: string): Promise<void> {
    this.result.stayedUp = false;
    this.result.productRestart = { atSec: Math.round(this.ticker.elapsed() * 10) / 10, why: `it ${crashed}` };
    await restartProduct(this.session, this.ticker);
  }

  /** gendata stopped and started again at `rate`, its records continuing where the last one's ended. */
  async switchRate(rate: number, name: string): Promise<void> {
    const final = await this.feed.stop();
    if (!final) throw new Error(`gendata gave no final report before the ${name}: its records' sequence numbers are unknown`);
    this.finals.push(final);
    this.nextSeq += final.sent;
    const { bench, plan } = this.session;
    this.feed = new GendataProcess(
      {
        bootstrap: bench.bootstrap,
        topic: plan.inputTopic,
        rate,
        seed: this.settings.seed,
        startSeq: this.nextSeq,
        logFile: join(plan.runDir, `gendata-${name}.log`),
      },
    );
    this.session.gendata = this.feed;
    this.ticker.switchGendata(this.feed, rate);
  }
}

async function overloadPhases(o: Overload): Promise<void> {
  const { session, settings, result } = o;
  const { feed, ticker } = session.feed();
  o.feed = feed;
  o.ticker = ticker;
  result.ticks = ticker.ticks;
  result.stayedUp = true;
  while (ticker.elapsed() < settings.warmupSec) await o.tick("settle");
  const baselineEnd = ticker.elapsed() + BASELINE_SEC;
  while (ticker.elapsed() < baselineEnd) await o.tick("window");

  await o.switchRate(settings.rate * BURST_FACTOR, "burst");
  const fromSec = ticker.elapsed();
  while (ticker.elapsed() - fromSec < result.settings.burstSec) await o.tick("window");
  await o.switchRate(settings.rate, "after-burst");
  const toSec = ticker.elapsed();
  result.burst = { fromSec: Math.round(fromSec * 10) / 10, toSec: Math.round(toSec * 10) / 10 };

  const level = backlogBaseline(ticker.ticks.filter((t) => t.phase === "window" && t.t < fromSec), settings.rate);
  for (;;) {
    const tick = await o.tick("window");
    if ((!tick.noReading && tick.inputEnd - tick.consumed <= level) || ticker.elapsed() - toSec >= result.settings.workOffLimitSec) break;
  }
  // The bench's records are the fixtures and every feed's (the base rate's, the burst's, this one's).
  const ticks = { tick: (phase: Phase) => o.tick(phase), elapsed: () => ticker.elapsed() };
  await drainAndTally(session, o.feed, ticks, settings.drainTimeoutSec, result, o.finals);
  Object.assign(result, overloadFigures(ticker.ticks, { burstFromSec: fromSec, burstToSec: toSec, rate: settings.rate }));
}

