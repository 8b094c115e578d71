/**
 * The timed phases of a run, in order: settle (until the backlog has settled, the product is
 * plainly overloaded, or the cap), window (the measured seconds), drain (gendata stopped, the
 * backlog worked off). Each takes the run's ticker and returns what the next needs.
 */
import { ownInputCount } from "./audit-foreign.ts";
import type { GendataProcess, GendataReport } from "./gendata-process.ts";
import { throughput } from "../metrics/derive.ts";
import { settleVerdict, type BacklogPoint, type SettleRule } from "../metrics/settle.ts";
import { windowKnown, type WindowStopRule } from "../metrics/window-stop.ts";
import type { Tick } from "../results/types.ts";
import type { RunTicker } from "./ticker.ts";

export interface SettleOutcome {
  /** settled: small, flat backlog; overloaded: large and growing; cap: neither by the cap. */
  how: "settled" | "overloaded" | "cap";
  /** Seconds from gendata's start to the window's start. */
  seconds: number;
}

export async function settle(ticker: RunTicker, rate: number, settleRule: SettleRule, allowOverload = true): Promise<SettleOutcome> {
  const points: BacklogPoint[] = [];
  const rule = allowOverload ? settleRule : { ...settleRule, overloadBacklogSec: Number.POSITIVE_INFINITY };
  for (;;) {
    const tick = await ticker.next("settle");
    points.push({ t: tick.t, backlog: tick.inputEnd - tick.outputEnd, inputEnd: tick.inputEnd });
    const verdict = settleVerdict(points, rate, rule);
    if (verdict.kind !== "wait") return { how: verdict.kind, seconds: tick.t };
  }
}

/**
 * Settle, then the window. "Overloaded" is a guess from a growing backlog, and a product still
 * warming up at the warmup's end looks the same (seen: a JVM row at 10k/s, backlog growing at 10 s,
 * then a window of catch-up at 13k/s): the window must confirm it. When it does not (the window
 * is not saturated), that window is relabelled settle, and the run settles again by the backlog
 * alone and measures a second window.
 */
export async function settledWindow(
  ticker: RunTicker, rate: number, rule: SettleRule, window: number | WindowStopRule,
): Promise<{ settled: SettleOutcome; window: { ticks: Tick[]; produceMs: [number, number] } }> {
  let settled = await settle(ticker, rate, rule);
  let measured = await measureWindow(ticker, window);
  if (settled.how === "overloaded" && throughput(measured.ticks).regime !== "saturated") {
    ticker.discardWindow();
    settled = await settle(ticker, rate, rule, false);
    measured = await measureWindow(ticker, window);
  }
  return { settled, window: measured };
}

/**
 * The measured window after the settle phase's last tick: a fixed number of seconds, or until
 * its figure is known (metrics/window-stop.ts; the settle's last tick is its first point).
 */
export async function measureWindow(ticker: RunTicker, length: number | WindowStopRule): Promise<{ ticks: Tick[]; produceMs: [number, number] }> {
  const ticks: Tick[] = [];
  const startMs = Date.now();
  if (typeof length === "number") {
    for (let i = 0; i < length; i++) ticks.push(await ticker.next("window"));
  } else {
    const before = ticker.ticks[ticker.ticks.length - 1];
    do ticks.push(await ticker.next("window"));
    while (!windowKnown(before ? [before, ...ticks] : ticks, length));
  }
  return { ticks, produceMs: [startMs - 1000, Date.now()] };
}

export interface DrainOutcome {
  final: GendataReport | undefined;
  /** Records still unconsumed or unrepublished at the timeout; 0 when the backlog drained. */
  undrained: number;
  last: Tick;
}

/** gendata stops (every sent record acknowledged); the product works off what is left. */
export async function drain(ticker: RunTicker, gendata: GendataProcess, timeoutSec: number): Promise<DrainOutcome> {
  const final = await gendata.stop();
  // An input that stopped because gendata gave up fails the run with gendata's reason, not the product.
  const gaveUp = gendata.gaveUp();
  if (gaveUp !== undefined) throw new Error(gaveUp);
  return { final, ...(await workOff(ticker, timeoutSec, ownInputCount(final))) };
}

/**
 * With gendata stopped: ticks until nothing waits to be consumed or republished, or the timeout.
 * `own`: the bench's own records in the input (audit-foreign.ts), when known: only they owe an
 * output, so a foreign record a row rightly skipped is no backlog.
 */
export async function workOff(ticker: RunTicker, timeoutSec: number, own?: number): Promise<Omit<DrainOutcome, "final">> {
  const started = ticker.elapsed();
  for (;;) {
    const tick = await ticker.next("drain");
    const owed = Math.min(tick.inputEnd, own ?? Number.POSITIVE_INFINITY);
    const waiting = Math.max(tick.inputEnd - tick.consumed, owed - tick.outputEnd, 0);
    if (waiting === 0 || ticker.elapsed() - started > timeoutSec) return { undrained: waiting, last: tick };
  }
}
