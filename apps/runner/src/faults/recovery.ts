/**
 * When a row is back after a broker restart, read from the run's ticks: the first moment from
 * which its output rate kept up with the offered rate for a few seconds running. Output, not
 * consumed, because a product that reads but cannot write (its producer still reconnecting) has
 * not recovered. Pure, so it is unit-tested on synthetic ticks.
 */
import type { Tick } from "../results/types.ts";

export interface RecoveryRule {
  /** Records per second offered. */
  rate: number;
  /** The output must keep at least this share of the offered rate... */
  fraction: number;
  /** ...over this many seconds running (one slow second of batching is not a relapse). */
  spanSec: number;
}

/** 90% over 3 s: a product's batches land unevenly from one second to the next at low rates. */
export const RECOVERY_RULE: Omit<RecoveryRule, "rate"> = { fraction: 0.9, spanSec: 3 };

type Reading = Pick<Tick, "t" | "outputEnd" | "noReading">;

/**
 * Seconds from `fromSec` (the broker's stop, on the ticks' clock) to the first tick from which
 * both the next second and the next spanSec seconds put out at least fraction × rate; undefined
 * if none is yet. Both, because over a span alone a catch-up burst at its end would date the
 * recovery from seconds that put out nothing. A span never crosses a tick with no reading: its
 * offsets are carried over, not read.
 */
export function recoverySec(ticks: readonly Reading[], fromSec: number, rule: RecoveryRule): number | undefined {
  const after = ticks.filter((tick) => tick.t >= fromSec);
  const keepsUp = (a: Reading, b: Reading): boolean => (b.outputEnd - a.outputEnd) / (b.t - a.t) >= rule.fraction * rule.rate;
  for (let i = 0; i + 1 < after.length; i++) {
    const start = after[i] as Reading;
    const next = after[i + 1] as Reading;
    if (start.noReading || next.noReading || !keepsUp(start, next)) continue;
    const end = after.slice(i + 1).find((tick, k, rest) => tick.noReading || tick.t - start.t >= rule.spanSec || k === rest.length - 1) as Reading;
    if (!end.noReading && end.t - start.t >= rule.spanSec && keepsUp(start, end)) return round1(start.t - fromSec);
  }
  return undefined;
}

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}
