/**
 * When a run's window may start. A fixed warmup measured a JVM row while it was still eating the
 * backlog that built up as it started (catch-up CPU, 39k/s consumed of 30k/s offered); here
 * the window waits until the backlog of unrepublished records has settled, or until it is
 * clear the product is fed beyond its capacity, or until a cap.
 */
import { slope } from "./derive.ts";

export interface SettleRule {
  /** Never start before this many seconds (JIT, connection set-up, first checkpoints). */
  minSec: number;
  /** Start anyway after this long; the run is then `unsettled`. */
  capSec: number;
  /** The backlog counts as small when at most this many seconds of offered records... */
  smallBacklogSec: number;
  /** ...for this many ticks in a row... */
  holdTicks: number;
  /** ...and its trend over the last `trendTicks` ticks is within this share of the offered rate. */
  flatShare: number;
  trendTicks: number;
  /** Fed beyond capacity: the backlog above this many seconds of records and growing faster than flatShare. */
  overloadBacklogSec: number;
  /** Records must be arriving at this share of the offered rate at least (gendata has really started). */
  feedShare: number;
}

export const SETTLE_RULE: Omit<SettleRule, "minSec" | "capSec"> = {
  smallBacklogSec: 1,
  holdTicks: 3,
  flatShare: 0.02,
  trendTicks: 5,
  overloadBacklogSec: 3,
  feedShare: 0.8,
};

/**
 * The rule for one run. A micro-batch engine keeping up holds a record up to one trigger interval
 * for its batch and up to one more while the batch runs (Product.microBatchSec): its settled
 * backlog is that much larger, not a backlog still being worked off.
 */
export function settleRuleFor(minSec: number, capSec: number, microBatchSec = 0): SettleRule {
  return { ...SETTLE_RULE, minSec, capSec, smallBacklogSec: SETTLE_RULE.smallBacklogSec + 2 * microBatchSec };
}

/** Fewer records than this are "small" at any rate: one batch in flight at a low rate. */
const BACKLOG_FLOOR = 2_000;

export interface BacklogPoint {
  /** Seconds since gendata started. */
  t: number;
  /** Records offered but not yet republished (input end − output end). */
  backlog: number;
  /** The input topic's end offset: what has arrived. */
  inputEnd: number;
}

export type SettleVerdict =
  | { kind: "wait" }
  /** The backlog is small and flat: a keep-up window can start. */
  | { kind: "settled" }
  /** The backlog is large and growing: the product is past its capacity; measure that. */
  | { kind: "overloaded" }
  | { kind: "cap" };

export function settleVerdict(points: readonly BacklogPoint[], offeredRate: number, rule: SettleRule): SettleVerdict {
  const last = points[points.length - 1];
  if (!last || last.t < rule.minSec) return { kind: "wait" };
  const trend = points.slice(-rule.trendTicks);
  const ts = trend.map((p) => p.t);
  const growth = trend.length >= 2 ? slope(ts, trend.map((p) => p.backlog)) : 0;
  // An empty backlog before gendata's first records arrive is small and flat too (seen on a
  // loaded machine: a window of 0 records/s); only a backlog under real load has settled.
  const fed = trend.length >= 2 && slope(ts, trend.map((p) => p.inputEnd)) >= rule.feedShare * offeredRate;
  const flat = fed && trend.length >= rule.trendTicks && Math.abs(growth) <= rule.flatShare * offeredRate;
  const small = Math.max(BACKLOG_FLOOR, rule.smallBacklogSec * offeredRate);
  const held = points.slice(-rule.holdTicks);
  if (flat && held.length >= rule.holdTicks && held.every((p) => p.backlog <= small)) return { kind: "settled" };
  const growing = trend.length >= rule.trendTicks && growth > rule.flatShare * offeredRate;
  if (growing && last.backlog > rule.overloadBacklogSec * offeredRate) return { kind: "overloaded" };
  if (last.t >= rule.capSec) return { kind: "cap" };
  return { kind: "wait" };
}
