/**
 * A drain's two ends, pure. Its backlog is filled by gendata flooding the input beside the
 * running product until enough waits (fillVerdict); its window ends once its figure is known
 * (window-stop.ts), or when the backlog is about to run out (its last seconds are the tail of a
 * queue, not a saturated product).
 */
import type { Tick } from "../results/types.ts";
import { consumedRate } from "./derive.ts";
import { microsPerPeriod, MIN_PERIODS, windowKnown, type WindowStopRule } from "./window-stop.ts";

/** The window ends when fewer than this many seconds of backlog are left at the rate it drains. */
export const BACKLOG_LEFT_SEC = 3;

export type DrainWindowEnd = "known" | "backlog-low" | undefined;

/**
 * A drain's window is at most this long. Its figures are the ceiling, which sets where the paced
 * steps begin and bounds the knee's bracket, and µs per record at saturation; the product has the
 * cores to itself, and every second of window is a second more of backlog to fill and drain.
 */
export const DRAIN_WINDOW_MAX_SEC = 15;

/** The paced window's rule, capped at DRAIN_WINDOW_MAX_SEC. */
export function drainWindowRule(paced: WindowStopRule): WindowStopRule {
  return { ...paced, maxSec: Math.min(paced.maxSec, DRAIN_WINDOW_MAX_SEC) };
}

/**
 * `window` starts at the settle's last tick; undefined while the window should go on. Two
 * window ticks at least, whatever is left: a figure needs two points (a backlog that ran out
 * this soon leaves the run unsettled, see drain-step.ts). A backlog that runs low after the
 * rule's minimum leaves a known figure, as a window at its minimum does. Either way a figure
 * needs the committed offset to have moved in MIN_PERIODS commit periods: a product that kept
 * pace with a refill has nothing left to drain, its last commit can stand still for the rest of
 * the window, and read as known its drain rate would be 0/s. Such a window is "backlog-low".
 */
export function drainWindowEnd(window: readonly Tick[], rule: WindowStopRule): DrainWindowEnd {
  const first = window[0];
  const last = window[window.length - 1];
  if (!first || !last || window.length < 3) return undefined;
  // Read only once the window would end: it runs once a second while the product is measured.
  const moved = (): boolean => microsPerPeriod(window).length >= MIN_PERIODS;
  if (last.inputEnd - last.consumed <= consumedRate(window) * BACKLOG_LEFT_SEC) return last.t - first.t >= rule.minSec && moved() ? "known" : "backlog-low";
  if (!windowKnown(window, rule)) return undefined;
  return moved() ? "known" : "backlog-low";
}

/**
 * Whether a refill's drain window is the one that counts: once its figure is known, or when it
 * drained more records than the first (a refill stopped at its cap can still drain for longer
 * than the first did; a refill that a product kept pace with leaves nothing to drain, and its
 * empty window must not replace a first one that measured something).
 */
export function refillWindowCounts(first: { window: readonly Tick[] }, second: { window: readonly Tick[]; end: DrainWindowEnd }): boolean {
  return second.end === "known" || drainedIn(second.window) > drainedIn(first.window);
}

function drainedIn(window: readonly Tick[]): number {
  return window.length > 1 ? (window[window.length - 1] as Tick).consumed - (window[0] as Tick).consumed : 0;
}

/**
 * The drain's tail is waited for this many times as long as its backlog takes at the rate the
 * window measured: a product works its tail off at about its window's rate, give or take its
 * own swings and a commit period.
 */
export const DRAIN_TAIL_SLACK = 1.5;
/**
 * The tail's wait at the most, whatever the row's rate: a backlog that needs longer is one the
 * product is not working off, and the run is invalid.
 */
export const DRAIN_TAIL_MAX_SEC = 300;

/**
 * How long the drain waits for its tail: `baseSec` (`--drain-timeout`), or longer for a row too
 * slow to empty the backlog in it. The fill runs gendata at full speed for at least FILL_MIN_SEC
 * before the product's rate is known, so a row slower than gendata by a large factor starts its
 * drain with a backlog sized by gendata, not by itself; its tail is waited for at its own rate.
 */
export function drainTailTimeoutSec(backlog: number, ratePerSec: number, baseSec: number): number {
  if (!(ratePerSec > 0) || !(backlog > 0)) return baseSec;
  return Math.max(baseSec, Math.min(DRAIN_TAIL_MAX_SEC, Math.ceil((backlog / ratePerSec) * DRAIN_TAIL_SLACK)));
}

/**
 * The fill starts with this many records only (gendata counted): a row under 3,400/s finds
 * FILL_BACKLOG_SEC of its rate in them and is filled, and works them off well within
 * DRAIN_TAIL_MAX_SEC even at one model-server call a record (about 650/s: 154 s). At full speed
 * gendata writes 150,000/s and more, so the FILL_MIN_SEC a rate needs to be read bury such a row
 * under minutes of backlog. A faster row works the probe off as it comes and is filled at full
 * speed after it, where FILL_MIN_SEC of gendata is at most DRAIN_TAIL_MAX_SEC of its own rate.
 */
export const FILL_PROBE_RECORDS = 100_000;

/**
 * The probe is worked off: gendata delivered every record of it (`delivered`, its own count) and
 * all but a tenth are consumed, so the row is faster than the probe can tell and the fill goes on
 * at full speed. gendata's count, not the ticks' input end, says the probe is written: a fast
 * gendata writes much of it, or all, before the fill's first tick.
 */
export function probeWorkedOff(ticks: readonly Tick[], delivered: number, probeRecords: number = FILL_PROBE_RECORDS): boolean {
  const last = ticks[ticks.length - 1];
  if (!last) return false;
  return delivered >= probeRecords && last.inputEnd - last.consumed < probeRecords / 10;
}

/** The fill goes on at least this long: the product's rate beside gendata is read from its last seconds. */
export const FILL_MIN_SEC = 4;
/** ...and at most this long: a slower backlog is drained as it is. */
export const FILL_MAX_SEC = 40;
/**
 * Enough backlog: this many seconds of what the product consumed beside gendata. Alone it drains
 * faster (1.1-3x on the committed drains: node 1.1-1.6, spark 3), and its drain needs a settle
 * (DRAIN_SETTLE_SEC, 3 s), a window of 10 s at least and DRAIN_WINDOW_MAX_SEC at most, and the
 * BACKLOG_LEFT_SEC tail: 21 s at the most, which 25 s of the rate beside gendata covers at 1.1x. A
 * backlog too large is drained after the window (every second of it a second of the budget), one
 * too small is refilled once, at REFILL_BACKLOG_SEC of the measured rate.
 */
export const FILL_BACKLOG_SEC = 25;
/**
 * A refill's backlog, in seconds of the rate the first drain measured: the drain's settle, a
 * window of up to DRAIN_WINDOW_MAX_SEC, the BACKLOG_LEFT_SEC tail and a margin. A product's consumed count can
 * lag its start by seconds (a JVM row's first commits: 2,000/s read at 4 s, 64,000/s drained), so
 * the first fill can fall short; the one refill then knows the rate.
 */
export const REFILL_BACKLOG_SEC = 25;
/** The backlog grows by less than this share of what gendata writes: the product keeps up with gendata. */
const OUTPACED_SHARE = 0.1;

export type FillVerdict = "filling" | "filled" | "outpaced" | "cap";

/**
 * Whether gendata may stop filling, from the ticks since it started (read from gendata's first
 * write; before the product's commits move, it fills on). `filled`: the backlog lasts
 * FILL_BACKLOG_SEC at the rate the product consumes beside gendata, or REFILL_BACKLOG_SEC at
 * `drainRate` when a first drain has measured it; `outpaced`: after twice the minimum, the backlog
 * is not growing (a product as fast as gendata: its drain will be short); `cap`: FILL_MAX_SEC.
 */
export function fillVerdict(ticks: readonly Tick[], drainRate?: number): FillVerdict {
  const head = ticks[0];
  const last = ticks[ticks.length - 1];
  if (!head || !last) return "filling";
  const notYet: FillVerdict = last.t - head.t >= FILL_MAX_SEC ? "cap" : "filling";
  // The fill is read from gendata's first write: on a busy machine gendata can take seconds to
  // start, and the product's rate must not be read from seconds with nothing to read.
  // A backlog at the first tick is a write already made: gendata can write seconds' worth before it.
  const started = ticks.findIndex((t) => t.inputEnd > head.inputEnd || t.inputEnd > t.consumed);
  const first = ticks[Math.max(0, started - 1)] as Tick;
  if (started < 0 || last.t - first.t < FILL_MIN_SEC || ticks.length - started < 4) return notYet;
  const recent = ticks.slice(-4);
  const from = recent[0] as Tick;
  const seconds = last.t - from.t;
  const consuming = (last.consumed - from.consumed) / seconds;
  const writing = (last.inputEnd - from.inputEnd) / seconds;
  const backlog = last.inputEnd - last.consumed;
  // Until the product's commits move, its rate (and so the backlog it needs) is unknown: fill on.
  const sizedBy = drainRate !== undefined && drainRate > 0 ? drainRate * REFILL_BACKLOG_SEC : consuming * FILL_BACKLOG_SEC;
  if (sizedBy > 0 && backlog >= sizedBy) return "filled";
  // Outpaced: the backlog neither grows nor holds two seconds of reading (gendata's own rate swings
  // beside a busy product: flink's refill read 74,000/s written against 73,000/s consumed over 3 s
  // with 245,000 waiting). A refill knows the product drains slower than gendata writes alone.
  const growth = writing - consuming;
  const small = backlog < 2 * consuming;
  if (drainRate === undefined && last.t - first.t >= 2 * FILL_MIN_SEC && growth < OUTPACED_SHARE * writing && small) return "outpaced";
  return notYet;
}
