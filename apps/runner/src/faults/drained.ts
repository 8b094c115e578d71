/**
 * When a fault run's backlog counts as drained again. The tick right after a kill still has a
 * small backlog (the committed offset stands still for a second or less), so without the first
 * condition a product that has not even started again reads as drained (seen: the passthrough row,
 * "drained 1.0 s" with its first new output at 45.4 s).
 */
export interface DrainPoint {
  /** Seconds since the kill. */
  sinceKill: number;
  /** Input records not yet consumed (committed offset or engine counter). */
  backlog: number;
}

/** Drained: after the restarted product's first new output, the backlog is back to its size before the kill (at most `limit`). */
export function isDrainedAfterKill(point: DrainPoint, firstOutputSec: number | undefined, limit: number): boolean {
  return firstOutputSec !== undefined && point.sinceKill >= firstOutputSec && point.backlog <= limit;
}
