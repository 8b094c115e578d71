/**
 * What an overload run says, read from its ticks: the burst's offered rate, the memory it cost
 * (PSS of the product's tree: a librdkafka row prefetches up to 500k messages by the shared
 * settings), the backlog it left and how long the row took to work it off at the base rate.
 * Pure, so it is unit-tested on synthetic ticks.
 */
import type { Tick } from "../results/types.ts";
import { median } from "../metrics/stats.ts";

export interface OverloadSpans {
  /** Ticks' clock (seconds since the first gendata's start). */
  burstFromSec: number;
  burstToSec: number;
  /** The base rate, records/s. */
  rate: number;
}

export interface OverloadFigures {
  baselineMemMb?: number;
  peakMemMb?: number;
  burstOfferedPerSec?: number;
  /** Records waiting when the burst ended. */
  backlogAfterBurst?: number;
  /** Seconds from the burst's end until the backlog was back to its baseline level (undefined: not within the run). */
  workedOffSec?: number;
  /** The level it had to come back to: the baseline's largest backlog, and never under one second of the base rate. */
  backlogBaseline?: number;
}

const backlog = (t: Pick<Tick, "inputEnd" | "consumed">): number => Math.max(0, t.inputEnd - t.consumed);
const round1 = (x: number): number => Math.round(x * 10) / 10;

/** The baseline level the backlog must come back to. */
export function backlogBaseline(baseline: readonly Tick[], rate: number): number {
  return Math.max(rate, ...baseline.filter((t) => !t.noReading).map(backlog));
}

export function overloadFigures(ticks: readonly Tick[], spans: OverloadSpans): OverloadFigures {
  const baseline = ticks.filter((t) => t.phase === "window" && t.t < spans.burstFromSec);
  const burst = ticks.filter((t) => t.t >= spans.burstFromSec && t.t <= spans.burstToSec && !t.noReading);
  const after = ticks.filter((t) => t.t > spans.burstToSec && !t.noReading);
  // Worked off only while gendata still offered the base rate: once it stops, the drain empties any backlog.
  const watched = after.filter((t) => t.phase !== "drain");
  const figures: OverloadFigures = {};
  const mems = baseline.map((t) => t.memMb).filter((m) => m > 0);
  if (mems.length > 0) figures.baselineMemMb = median(mems);
  const peak = Math.max(0, ...[...burst, ...after].map((t) => t.memMb));
  if (peak > 0) figures.peakMemMb = peak;
  const [first, last] = [burst[0], burst[burst.length - 1]];
  if (first && last && last.t > first.t) {
    figures.burstOfferedPerSec = (last.inputEnd - first.inputEnd) / (last.t - first.t);
    figures.backlogAfterBurst = backlog(last);
  }
  const level = backlogBaseline(baseline, spans.rate);
  figures.backlogBaseline = level;
  const back = watched.find((t) => backlog(t) <= level);
  if (back) figures.workedOffSec = round1(back.t - spans.burstToSec);
  return figures;
}
