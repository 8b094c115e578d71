/**
 * A paced session's drain (paced-session.ts): the product's ceiling on one partition, measured
 * alone over a backlog gendata filled beside it.
 *
 *   fill     gendata as fast as it goes beside the product until enough backlog waits
 *            (drain-window.ts' fillVerdict), then stopped, timed; its first FILL_PROBE_RECORDS
 *            alone first, so a row far slower than gendata is filled by them and no more
 *   settle   DRAIN_SETTLE_SEC of draining: the product is warm from the fill
 *   window   until µs per record is known, or the backlog is about to run out
 *   refill   once, when the backlog ran low before the figure was known: gendata again until
 *            REFILL_BACKLOG_SEC of the measured drain rate waits, then settle and window again;
 *            the refill's window counts once its figure is known or it drained more records
 *   tail     the rest drained before the first paced step
 *
 * A product that reads as fast as gendata writes (`outpaced`) leaves no backlog to drain: its
 * window is then gendata at full speed, which it kept up with, and gendata's rate its ceiling.
 */
import { drainTailTimeoutSec, drainWindowEnd, fillVerdict, probeWorkedOff, refillWindowCounts, type FillVerdict } from "../metrics/drain-window.ts";
import type { WindowStopRule } from "../metrics/window-stop.ts";
import { consumedRate, consumedSlope } from "../metrics/derive.ts";
import type { PrefillRecord, RunResult, Tick } from "../results/types.ts";
import type { GendataProcess, GendataReport } from "./gendata-process.ts";
import type { MachineWatch } from "./machine.ts";
import { harnessCost, windowFigures } from "./measure.ts";
import { measureWindow, workOff } from "./phases.ts";
import type { RunTicker } from "./ticker.ts";

/** The drain's settle: the product is warm from the fill, only its fetches must catch up. */
export const DRAIN_SETTLE_SEC = 3;

export interface DrainStepParts {
  ticker: RunTicker;
  watch: MachineWatch;
  result: RunResult;
  rule: WindowStopRule;
  drainTimeoutSec: number;
  /** gendata stopped; the session's next sequence number moves past what it sent. */
  stopFeed(feed: GendataProcess): Promise<GendataReport>;
  /** A new gendata as fast as it goes, continuing the sequence; the ticker watches it. */
  refeed(label: "fill" | "refill"): GendataProcess;
  /** The step's provisional status, from what was left undrained after waiting `timeoutSec` for it. */
  provisional(undrained: number, timeoutSec: number): void;
}

type Drained = Awaited<ReturnType<typeof workOff>>;

/**
 * The backlog left now, worked off and waited for at the rate `window` measured
 * (drainTailTimeoutSec): a slow row's tail is no undrained backlog while it drains at its own rate.
 */
async function tail(ticker: RunTicker, window: readonly Tick[], baseSec: number): Promise<{ drained: Drained; timeoutSec: number }> {
  const last = ticker.ticks[ticker.ticks.length - 1];
  const backlog = last === undefined ? 0 : Math.max(last.inputEnd - last.consumed, 0);
  const timeoutSec = drainTailTimeoutSec(backlog, window.length > 1 ? consumedRate(window) : 0, baseSec);
  return { drained: await workOff(ticker, timeoutSec), timeoutSec };
}

type FillEnd = Exclude<FillVerdict, "filling">;

/** Ticks "warmup" from now until gendata may stop; `drainRate` sizes a refill. */
async function fill(ticker: RunTicker, drainRate?: number): Promise<FillEnd> {
  const from = ticker.ticks.length;
  for (;;) {
    await ticker.next("warmup");
    const verdict = fillVerdict(ticker.ticks.slice(from), drainRate);
    if (verdict !== "filling") return verdict;
  }
}

/** The first fill's verdict, the feed that filled, and the probe's record when a fill at full speed followed it. */
type FirstFill = { verdict: FillEnd; feed: GendataProcess; probe?: PrefillRecord };

/**
 * The first fill: the counted probe `feed` (FILL_PROBE_RECORDS), which fills a slow row by itself;
 * a row that works it off as it comes (or keeps pace with it) is filled by gendata at full speed
 * after it.
 */
async function firstFill(ticker: RunTicker, probe: GendataProcess, p: DrainStepParts): Promise<FirstFill> {
  const from = ticker.ticks.length;
  for (;;) {
    await ticker.next("warmup");
    const ticks = ticker.ticks.slice(from);
    const verdict = fillVerdict(ticks);
    if (verdict === "filled" || verdict === "cap") return { verdict, feed: probe };
    if (verdict === "outpaced" || probeWorkedOff(ticks, probe.latest()?.delivered ?? 0)) break;
  }
  const probed = fillRecord(await p.stopFeed(probe), "outpaced", false);
  const feed = p.refeed("fill");
  return { verdict: await fill(ticker), feed, probe: probed };
}

function fillRecord(final: GendataReport, besideProduct: FillEnd, refill: boolean): PrefillRecord {
  return {
    records: final.delivered,
    seconds: final.t,
    ratePerSec: final.delivered / final.t,
    gendataCpuPercent: (final.cpuSeconds / final.t) * 100,
    besideProduct,
    ...(refill ? { refill: true } : {}),
  };
}

/** settle, then the window until its figure is known or the backlog runs low. */
async function drainWindow(ticker: RunTicker, rule: WindowStopRule): Promise<{ window: Tick[]; end: "known" | "backlog-low"; settleSec: number }> {
  const filledAt = ticker.elapsed();
  let before = await ticker.next("settle");
  while (before.t - filledAt < DRAIN_SETTLE_SEC) before = await ticker.next("settle");
  const window: Tick[] = [];
  let end: ReturnType<typeof drainWindowEnd>;
  do {
    window.push(await ticker.next("window"));
    end = drainWindowEnd([before, ...window], rule);
  } while (end === undefined);
  return { window, end, settleSec: before.t };
}

/** The drain's timed part into `p.result`; returns its window's produce-time range (none: every record waited in a backlog). */
export async function drainStep(feed: GendataProcess, p: DrainStepParts): Promise<[number, number]> {
  const { ticker, result } = p;
  const { verdict, feed: filled, probe } = await firstFill(ticker, feed, p);
  if (probe) result.probeFill = probe;
  const beside = verdict === "outpaced" ? await measureWindow(ticker, p.rule) : undefined;
  result.prefill = fillRecord(await p.stopFeed(filled), verdict, false);
  if (beside) {
    const { drained, timeoutSec } = await tail(ticker, beside.ticks, p.drainTimeoutSec);
    Object.assign(
      result,
      windowFigures(beside.ticks, 0, drained.last.consumed, consumedSlope),
      { harness: harnessCost(ticker.windowHarness, p.watch.costPercent()), settled: false },
    );
    p.provisional(drained.undrained, timeoutSec);
    return beside.produceMs;
  }
  const first = await drainWindow(ticker, p.rule);
  let measured = first;
  let harness = ticker.windowHarness;
  if (first.end === "backlog-low") {
    const again = p.refeed("refill");
    const refilled = await fill(ticker, consumedRate(first.window));
    const refillRecord = fillRecord(await p.stopFeed(again), refilled, true);
    const second = await drainWindow(ticker, p.rule);
    // The other window's ticks become settle ticks.
    const keepSecond = refillWindowCounts(first, second);
    measured = keepSecond ? second : first;
    for (const tick of (keepSecond ? first : second).window) tick.phase = "settle";
    harness = keepSecond ? ticker.windowHarness.slice(first.window.length) : ticker.windowHarness.slice(0, first.window.length);
    if (keepSecond) [result.prefill, result.uncountedFill] = [refillRecord, result.prefill];
    else result.uncountedFill = refillRecord;
  }
  const { drained, timeoutSec } = await tail(ticker, measured.window, p.drainTimeoutSec);
  Object.assign(
    result,
    windowFigures(measured.window, 0, drained.last.consumed, consumedSlope),
    { harness: harnessCost(harness, p.watch.costPercent()), settleSec: measured.settleSec },
  );
  // A window cut short by the backlog's end before its figure was known is no steady figure.
  result.settled = measured.end === "known";
  p.provisional(drained.undrained, timeoutSec);
  return [0, 0];
}
