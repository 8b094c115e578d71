/**
 * A paced session: one product start and one gate serve every step of a knee search (the fast
 * search's drain and paced steps, or a `--sweep`'s steps).
 *
 *   open    fresh topics, the product started, the fixtures gate
 *   drain   gendata floods the input beside the product until a backlog waits (drain-window.ts'
 *           fillVerdict), then stops; the product, warm, drains it alone: settle, a window that
 *           ends when its figure is known or the backlog runs low, the rest drained. Its rate is
 *           the product's ceiling on one partition, its µs per record the cost at saturation
 *           without gendata competing (OpenMessaging's backlog workloads pause consumers the same way)
 *   step    gendata at the step's rate (sequence numbers continuing from the step before),
 *           settle, a window that ends when its figure is known, gendata stopped and the
 *           backlog drained before the next step; the speed index read with the product idle
 *   close   the product stopped, then one audit of the whole output (lost, duplicated,
 *           mis-scored, bad outputs, and each step's latency), whose verdict applies to every step
 *
 * Each step is a full RunResult (ticks, settle, window, regime, conditions, harness cost). A
 * step's status is provisional until close(): a step the audit finds wanting becomes invalid,
 * and so does every other step of the session, since one output topic holds them all.
 */
import { runtimeReading, runYardstick } from "../yardstick/read.ts";
import { FIXTURE_COUNT, misreadSeqs, type Prepared, type Product } from "@bench/core";
import { join } from "node:path";
import { profilePhase } from "../profile/window.ts";
import type { ForeignRecords, RunResult, Tick, VerificationResult } from "../results/types.ts";
import { combinedFinal, foreignInput, ownInputCount } from "./audit-foreign.ts";
import { auditOutputs } from "./audit.ts";
import type { BenchContext } from "./context.ts";
import { GendataProcess, type GendataReport } from "./gendata-process.ts";
import { invalidReasons, judgeConditions } from "./judge.ts";
import { emptyResult, harnessCost, windowFigures, type RunSettings } from "./measure.ts";
import { settledWindow, workOff } from "./phases.ts";
import { settleRuleFor } from "../metrics/settle.ts";
import { drainStep } from "./drain-step.ts";
import { drainWindowRule, FILL_PROBE_RECORDS } from "../metrics/drain-window.ts";
import { WINDOW_STOP_RULE } from "../metrics/window-stop.ts";
import type { MachineWatch } from "./machine.ts";
import { planRun, RunSession } from "./session.ts";
import type { RunTicker } from "./ticker.ts";
import { SPEED_INDEX_VERSION, speedReadings, type SpeedReadings } from "./speed-index.ts";

/** A later step's settle minimum: the product is warm, only the new rate's backlog must settle. */
export const WARM_SETTLE_SEC = 5;
/**
 * A later step's settle cap. Warm steps settle in 5–9 s; those that had not by 20 s did not by
 * 60 either (the first one-session bench: kafka-streams and spark, 60–67 s each, unsettled), and
 * an unsettled step is run again whatever its cap was.
 */
export const WARM_SETTLE_CAP_SEC = 20;
/** Asked of gendata while it fills the drain's backlog: far above what it can do, so it goes as fast as it can. */
const FILL_RATE = 100_000_000;

/** A step's timed part: it runs gendata (`feed`) under `ticker` and fills `result`; returns the window's produce-time range. */
type StepBody = (feed: GendataProcess, ticker: RunTicker, watch: MachineWatch) => Promise<[number, number]>;

interface SessionStep {
  run: RunResult;
  windowMs: [number, number];
}

export class PacedSession {
  private readonly session: RunSession;
  private readonly steps: SessionStep[] = [];
  private gate: VerificationResult | undefined;
  private consumedSource = "";
  private nextSeq = FIXTURE_COUNT;
  /** Every stopped feed's final report, and how many feeds are running: the bench's own input records are known from them (audit-foreign.ts). */
  private readonly finals: GendataReport[] = [];
  private feedsOpen = 0;
  /** Why no further step can run (the product failed, or the gate did); set once. */
  private ended: { status: "failed" | "invalid"; reason: string } | undefined;
  /** What the product had committed when it failed: only that much is held to done. */
  private heldTo: number | undefined;
  /** The product's cold start was worked off (warmUp): the first step settles as a later step does. */
  private warmed: RunResult["warmUp"];

  constructor(
    private readonly product: Product,
    private readonly prepared: Prepared,
    private readonly base: RunSettings,
    private readonly bench: BenchContext,
    /** Names the session's run folder and topics: "paced" for the fast search, "sweep" for a sweep. */
    label = "paced",
  ) {
    this.session = new RunSession(product, prepared, planRun(product.id, label, bench.resultsDir), base, bench);
  }

  private get speedIndex(): SpeedReadings {
    return speedReadings(this.bench);
  }

  /** start and gate, once; a product that does not start or pass ends the session before any step. */
  async open(): Promise<void> {
    await this.session.createTopics();
    try {
      const running = await this.session.start();
      this.consumedSource = running.consumed.kind === "group-offsets" ? `group offsets (${this.session.plan.groupId})` : running.consumed.describe;
      this.gate = await this.session.verify();
      if (!this.gate.passed) {
        if (this.session.crashed) throw new Error(this.session.crashed);
        this.ended = {
          status: "invalid",
          reason: invalidReasons({ verification: this.gate, undrained: 0, drainTimeoutSec: this.base.drainTimeoutSec }).join("; "),
        };
      }
    } catch (error) {
      this.ended = { status: "failed", reason: this.failure(error) };
    }
  }

  /** The product failed mid-step: no further step runs, and only what it had committed is held to done. Returns why. */
  private async failedAt(error: unknown, ticks: readonly Tick[]): Promise<string> {
    // The session's gendata now: a drain's refill replaces the feed it began with.
    await this.session.gendata?.stop();
    this.heldTo = (ticks[ticks.length - 1] as Tick | undefined)?.consumed;
    const reason = this.failure(error);
    this.ended = { status: "failed", reason };
    return reason;
  }

  private failure(error: unknown): string {
    const crashed = this.session.crashed;
    return crashed ? `${crashed}\n--- log tail ---\n${this.session.running?.logTail(25) ?? ""}` : (error as Error).message;
  }

  /** The drain: the product's ceiling, measured alone over a backlog gendata filled beside it (drain-step.ts). */
  async drainStep(): Promise<RunResult> {
    const settings: RunSettings = { ...this.base, rate: 0 };
    const result: RunResult = { ...emptyResult(this.product, this.prepared, settings), sweepPurpose: "drain", consumedSource: this.consumedSource };
    const body: StepBody = (feed, ticker, watch) =>
      drainStep(feed, {
        ticker,
        watch,
        result,
        rule: drainWindowRule(this.base.windowRule ?? WINDOW_STOP_RULE),
        drainTimeoutSec: this.base.drainTimeoutSec,
        stopFeed: (f) => this.stopFeed(f, result.gendataWarnings),
        refeed: (label) => {
          const again = this.feed(FILL_RATE, label);
          ticker.switchGendata(again, 0);
          return again;
        },
        provisional: (undrained, timeoutSec) => this.provisional(result, undrained, timeoutSec),
      });
    return this.timedStep(result, FILL_RATE, body, FILL_PROBE_RECORDS);
  }

  /** One paced step at `rate`: a RunResult whose status the session's audit settles (close). */
  async step(rate: number, purpose: RunResult["sweepPurpose"]): Promise<RunResult> {
    const settings: RunSettings = { ...this.base, rate };
    const result: RunResult = { ...emptyResult(this.product, this.prepared, settings), sweepPurpose: purpose, consumedSource: this.consumedSource };
    return this.timedStep(result, rate, async (feed, ticker, watch) => {
      const warm = this.steps.length > 0 || this.warmed !== undefined;
      if (this.steps.length === 0 && this.warmed) result.warmUp = this.warmed;
      const warmup = warm ? Math.min(WARM_SETTLE_SEC, this.base.warmupSec) : this.base.warmupSec;
      // After a warm-up the step feeds an idle product, as a first step does: its minimum is short
      // (the cold start is worked off), its cap the session's; only a later step's cap is short.
      const cap = this.steps.length > 0 ? Math.min(WARM_SETTLE_CAP_SEC, this.base.settleCapSec) : this.base.settleCapSec;
      const rule = settleRuleFor(warmup, cap, this.product.microBatchSec);
      const { settled, window } = await settledWindow(ticker, rate, rule, this.base.windowRule ?? this.base.windowSec);
      result.settleSec = settled.seconds;
      if ((purpose === "confirm" || purpose === "round") && this.base.profileSec) result.profile = await this.profile(ticker, window.ticks);
      await this.stopFeed(feed, result.gendataWarnings);
      const drained = await workOff(ticker, this.base.drainTimeoutSec);
      Object.assign(result, windowFigures(window.ticks, 0, drained.last.consumed), { harness: harnessCost(ticker.windowHarness, watch.costPercent()) });
      result.settled = settled.how === "settled" || (settled.how === "overloaded" && result.throughput?.regime === "saturated");
      this.provisional(result, drained.undrained);
      return window.produceMs;
    });
  }

  /**
   * The product's cold start worked off before the first step, as the search's drain works it off
   * before its paced steps: gendata at `rate` for `seconds`, stopped, the backlog drained. No figure
   * is taken from it (a window here would be a cold product's); its records are in the output the
   * audit reads. A product that fails here ends the session as a failed step would.
   */
  async warmUp(rate: number, seconds: number): Promise<void> {
    if (this.ended) return;
    await this.bench.quiet?.();
    const feed = this.feed(rate, "warm-up");
    const { ticker } = this.session.watch(feed, undefined, rate);
    try {
      while (ticker.elapsed() < seconds) await ticker.next("warmup");
      const warnings: string[] = [];
      await this.stopFeed(feed, warnings);
      const { undrained } = await workOff(ticker, this.base.drainTimeoutSec);
      for (const w of warnings) this.bench.log(`== ${this.product.id}: warm-up: ${w}`);
      if (undrained > 0) this.bench.log(`== ${this.product.id}: warm-up left ${undrained} records undrained; the step settles them`);
      this.warmed = { rate, seconds };
    } catch (error) {
      await this.failedAt(error, ticker.ticks);
    } finally {
      this.bench.onRunEnd?.();
    }
  }

  /** gendata at `rate` (`count` records, when given) into the session's input, its sequence numbers continuing; the session's gendata from now on. */
  private feed(rate: number, label: string, count?: number): GendataProcess {
    const feed = new GendataProcess({
      bootstrap: this.bench.bootstrap,
      topic: this.session.plan.inputTopic,
      rate,
      seed: this.base.seed,
      startSeq: this.nextSeq,
      ...(count !== undefined ? { count } : {}),
      logFile: join(this.session.plan.runDir, `gendata-${label}.log`),
    });
    this.session.gendata = feed;
    this.feedsOpen++;
    return feed;
  }

  /** gendata stopped (every sent record acknowledged): the next step's sequence numbers continue after what it sent. */
  private async stopFeed(feed: GendataProcess, warnings: string[]): Promise<GendataReport> {
    const final = await feed.stop();
    if (!final?.final) throw new Error("gendata gave no final report: the next step's sequence numbers are unknown");
    this.feedsOpen--;
    this.finals.push(final);
    if (final.failed > 0) warnings.push(`gendata: ${final.failed} records failed (${final.lastError ?? "no detail"})`);
    this.nextSeq += final.sent;
    return final;
  }

  /** Provisional: close() holds the whole output to the audit. An undrained backlog is known now, and ends the search as it would a sweep. */
  private provisional(result: RunResult, undrained: number, drainTimeoutSec = this.base.drainTimeoutSec): void {
    const reasons = invalidReasons({ verification: result.verification as VerificationResult, undrained, drainTimeoutSec });
    Object.assign(result, reasons.length > 0 ? { status: "invalid", reason: reasons.join("; ") } : { status: "ok" });
  }

  /** What every step shares: speed readings around it, its gendata and ticker, a failure that ends the session, conditions. */
  private async timedStep(result: RunResult, rate: number, body: StepBody, count?: number): Promise<RunResult> {
    if (this.gate) result.verification = this.gate;
    if (this.ended) return { ...result, status: this.ended.status, reason: this.ended.reason };
    // The previous product's audit may still be reading (bench.ts): nothing is timed before it ends.
    await this.bench.quiet?.();
    const speedBefore = await this.speedIndex.before();
    const runtimesBefore = await runtimeReading(this.bench);
    const feed = this.feed(rate, String(this.steps.length + 1), count);
    // A feed as fast as it goes has no asked rate to fall behind: the ticker is told 0.
    const { watch, ticker } = this.session.watch(feed, undefined, rate === FILL_RATE ? 0 : rate);
    result.ticks = ticker.ticks;
    result.gendataWarnings = ticker.gendataWarnings;
    try {
      const windowMs = await body(feed, ticker, watch);
      this.steps.push({ run: result, windowMs });
    } catch (error) {
      Object.assign(result, { status: "failed", reason: await this.failedAt(error, result.ticks) });
    } finally {
      this.bench.onRunEnd?.();
    }
    if (result.throughput) {
      const speed = { before: speedBefore, after: await this.speedIndex.after(), reference: this.bench.speedReference, version: SPEED_INDEX_VERSION };
      result.conditions = judgeConditions(result.ticks.filter((t) => t.phase === "window"), speed);
      result.yardstick = runYardstick(runtimesBefore, await runtimeReading(this.bench), result);
    }
    return result;
  }

  /** `--profile`: where the CPU goes at a confirm step's rate, gendata still feeding (profile/window.ts). */
  private profile(ticker: RunTicker, windowTicks: Tick[]): ReturnType<typeof profilePhase> {
    const { session, bench } = this;
    return profilePhase({
      roots: () => session.running?.rootPids() ?? [],
      rules: this.product.profileRules,
      seconds: this.base.profileSec as number,
      ticker,
      windowTicks,
      runDir: session.plan.runDir,
      resultsDir: bench.resultsDir,
      log: bench.log,
    });
  }

  /** The product stopped, then the one audit and its verdict on every step. Returns why the steps are invalid, if they are. */
  async close(): Promise<string | undefined> {
    await this.stop();
    return this.audit();
  }

  /** The product stopped, the topics kept for the audit: an idle engine still polls, and the audit's readers need the cores. */
  async stop(): Promise<void> {
    await this.session.teardown(true);
  }

  /** After stop(): the one audit and its verdict on every step, then the topics deleted. Returns why the steps are invalid, if they are. */
  async audit(): Promise<string | undefined> {
    try {
      return this.steps.length > 0 ? await this.auditAll() : undefined;
    } finally {
      await this.session.deleteTopics();
    }
  }

  /**
   * The bench's own records in the input (`produced`: seq = offset, fixtures first, then each
   * feed's) and the foreign ones past them. Known when every feed stopped with its final report;
   * a step cut short (a failure, an interruption) leaves records past nextSeq, and the input's end
   * then counts as produced (heldTo holds only what was consumed to "done").
   */
  private async ownInput(): Promise<{ produced: number; foreign?: ForeignRecords }> {
    const { bench, plan } = this.session;
    const inputEnd = await bench.admin.endOffset(plan.inputTopic);
    const own = this.heldTo === undefined ? ownInputCount(combinedFinal(this.finals, this.feedsOpen)) : undefined;
    if (own === undefined) return { produced: Math.max(this.nextSeq, inputEnd) };
    const foreign = await foreignInput(bench.bootstrap, plan.inputTopic, { inputEnd, own, produced: own });
    return { produced: own, ...(foreign ? { foreign } : {}) };
  }

  private async auditAll(): Promise<string | undefined> {
    const { bench, plan } = this.session;
    const [first, ...later] = this.steps as [SessionStep, ...SessionStep[]];
    const { produced, foreign } = await this.ownInput();
    const outputEnd = await bench.admin.endOffset(plan.outputTopic);
    // Millions of outputs take a while to read (about 2 µs of CPU a record natively, 7 through the binding), and after
    // Ctrl-C nothing else is printed meanwhile.
    bench.log(`== ${this.product.id}: auditing all ${outputEnd.toLocaleString("en-US")} output records`);
    const delivery = await auditOutputs({
      bootstrap: bench.bootstrap,
      outputTopic: plan.outputTopic,
      produced,
      outputEnd,
      seed: this.base.seed,
      reference: bench.reference,
      passthrough: this.product.passthrough === true,
      tolerance: bench.reference.card.tolerance,
      unscored: misreadSeqs(this.product.spellingFindings, bench.fixtures),
      windowMs: first.windowMs,
      moreWindowsMs: later.map((s) => s.windowMs),
      ...(this.heldTo !== undefined ? { heldTo: this.heldTo } : {}),
      ...(bench.outputReader !== undefined ? { reader: bench.outputReader } : {}),
      transactional: bench.guarantee === "exactly-once",
    });
    if (foreign) delivery.foreign = foreign;
    const extra = await this.session.extraRecords();
    const { latencyByWindow, latencyMs, ...shared } = delivery;
    const reasons = invalidReasons({
      verification: this.gate as VerificationResult, delivery, undrained: 0, drainTimeoutSec: this.base.drainTimeoutSec, guarantee: bench.guarantee,
    });
    this.steps.forEach((step, i) => {
      const latency = i === 0 ? latencyMs : latencyByWindow?.[i - 1];
      step.run.delivery = { ...shared, ...(latency ? { latencyMs: latency } : {}) };
      if (step.run.throughput) step.run.throughput.extraRecordsPerRecord = this.nextSeq > 0 ? extra / this.nextSeq : 0;
      if (reasons.length > 0) Object.assign(step.run, { status: "invalid", reason: [step.run.reason, ...reasons].filter(Boolean).join("; ") });
    });
    return reasons.length > 0 ? reasons.join("; ") : undefined;
  }
}
