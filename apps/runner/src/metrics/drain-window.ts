/**
 * When a drain run's window ends: once its figure is known (window-stop.ts), or when the backlog
 * is about to run out (its last seconds are the tail of a queue, not a saturated product). Pure.
 */
import type { Tick } from "../results/types.ts";
import { consumedRate } from "./derive.ts";
import { windowKnown, type WindowStopRule } from "./window-stop.ts";

/** The window ends when fewer than this many seconds of backlog are left at the rate it drains. */
export const BACKLOG_LEFT_SEC = 3;

export type DrainWindowEnd = "known" | "backlog-low" | undefined;

/**
 * `window` starts at the settle's last tick; undefined while the window should go on. Two
 * window ticks at least, whatever is left: a figure needs two points (a backlog that ran out
 * this soon leaves the run unsettled, see drain-run.ts).
 */
export function drainWindowEnd(window: readonly Tick[], rule: WindowStopRule): DrainWindowEnd {
  const last = window[window.length - 1];
  if (!last || window.length < 3) return undefined;
  const rate = consumedRate(window);
  if (last.inputEnd - last.consumed <= rate * BACKLOG_LEFT_SEC) return "backlog-low";
  return windowKnown(window, rule) ? "known" : undefined;
}
