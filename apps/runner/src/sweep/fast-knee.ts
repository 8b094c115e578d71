/**
 * The knee search of the main command (and `--fast`): the highest offered rate the product
 * sustains on one partition, in few paced runs. Each rule, and what it serves:
 *
 *  1. Ceiling first. A drain (run-fast.ts) measures what the product consumes working off a
 *     backlog alone; no paced rate is tried above it plus DRAIN_BOUND_MARGIN (read at the step's
 *     machine speed), nor above what gendata can offer beside the product. Runs go where the
 *     knee can be.
 *  2. Start just under it, at START_SHARE of the ceiling: paced, the product shares the cores
 *     with gendata and the broker, so its knee sits under its drain rate.
 *  3. Down toward what was done: a step that did not keep up moves halfway toward what it
 *     consumed (nextRateDown), since an overloaded product consumes less than it sustains.
 *  4. Up by bisection from a keep-up, toward the lowest rate that saturated (else the bound),
 *     until the two are within KNEE_RESOLUTION: finer is below what a minute's drift lets a run
 *     tell apart. The main command's is ROUNDS_RESOLUTION: its rounds re-judge the knee.
 *  5. Only a clean keep-up keeps up (KneeSearch.measure, knee.ts): a draining or unsettled step
 *     is run again, a noisy one again a bounded number of times, an invalid one withdraws the
 *     knee, a failed one ends the search, and a rate gendata cannot offer beside the product
 *     bounds the bisection from above as a saturated one does, but says "at least" when it is
 *     what ends it. A figure is only as good as the run it comes from.
 *  6. One confirm, the sweep's (repeatAt): the knee run again with a cost that repeats. The main
 *     command leaves it to its rounds, which run the knee again later, in a random order.
 *  7. Bounded: at most MAX_FAST_STEPS paced runs.
 */
import { slowerMachine } from "./machine-speed.ts";
import type { BenchSpeed } from "./speed-wait.ts";
import {
  costsAt,
  costsHold,
  COST_REPEAT_SPREAD,
  DEFAULT_SWEEP,
  fmt,
  KNEE_RESOLUTION,
  KneeSearch,
  keptUpUnder,
  kneeFigures,
  microsList,
  repeatAt,
  roundRate,
  type StepOutcome,
  type StepPurpose,
  type SweepResult,
} from "./knee.ts";

export interface FastKneeOptions {
  /** The drain run's consumed/s: the product's ceiling on one partition. */
  ceiling: number;
  /** The highest rate gendata can offer beside the product (from its timed fill). */
  gendataCap: number;
  /** The product read as fast as gendata could write: the ceiling is gendata's, and a knee found under it is "at least". */
  ceilingByGendata?: boolean;
  /**
   * The drain's figure was not settled or not quiet: its rate only sets where the search begins,
   * and neither bounds the paced rates nor closes the bracket (a JVM still warming can drain at a
   * third of what it later sustains paced).
   */
  ceilingUnsettled?: boolean;
  /** The speed index during the drain (the mean of its readings before and after), when it was read. */
  ceilingSpeed?: number;
  /**
   * Run the knee again to confirm it (default). The main command does not: its rounds run every
   * row at its knee again, later and in a random order, which a repeat a minute later cannot replace.
   */
  confirm?: boolean;
  /** The first paced step's share of the ceiling; absent: START_SHARE. */
  startShare?: number;
  /** How close the bisection up brings a keep-up and the rate above it; absent: KNEE_RESOLUTION. */
  resolution?: number;
}

/**
 * The main command's resolution: its rounds run every knee again later and move a row down where
 * it does not hold (rounds/knee-moves.ts), and a step finer than this is within what the host's
 * slow phases move a rate, so it spends a paced run on a bracket the rounds then re-judge.
 */
export const ROUNDS_RESOLUTION = 0.2;

/**
 * The first paced step, as a share of the ceiling. Paced, the product shares the cores with
 * gendata and the broker's extra writes, so a knee sits under the drain rate; starting just under
 * the usual knee/drain ratio takes the fewest paced runs (docs/method.md, "The main command's knee").
 */
export const START_SHARE = 0.9;
/** A saturated step's next rate is never above this share of its own. */
export const DOWN_SHARE = 0.95;
/** Hard cap on paced runs (repeats, the bisection and confirms included). */
export const MAX_FAST_STEPS = 10;

/**
 * The first paced rate, and whether gendata (not the product) set it. A ceiling that is gendata's
 * (the product kept up with all it wrote) says nothing of where the product's knee is: the search
 * starts at what gendata can offer.
 */
export function firstPacedRate(opts: FastKneeOptions): { rate: number; byGendata: boolean } {
  const cap = roundRate(opts.gendataCap);
  if (opts.ceilingByGendata === true) return { rate: Math.min(cap, roundRate(opts.ceiling)), byGendata: true };
  const wanted = roundRate(opts.ceiling * (opts.startShare ?? START_SHARE));
  return wanted <= cap ? { rate: wanted, byGendata: false } : { rate: cap, byGendata: true };
}

/**
 * Where a step that did not keep up sends the search next, strictly lower: halfway between its
 * rate and what it consumed. An overloaded product consumes less than it sustains (it competes
 * with gendata and the broker for the cores), so the knee lies between the two. When gendata could
 * not offer the rate, nothing above what it offered can be tried.
 */
export function nextRateDown(step: Pick<StepOutcome, "rate" | "consumedPerSec" | "offeredPerSec" | "gendataShort">): number {
  const toward = step.gendataShort ? step.offeredPerSec * DOWN_SHARE : (step.consumedPerSec + step.rate) / 2;
  const next = roundRate(Math.min(step.rate * DOWN_SHARE, toward));
  return next < step.rate ? next : roundRate(step.rate * DOWN_SHARE);
}

interface Found { knee?: number; confirmed: boolean; stop: string; atLeast: boolean }

/** A keep-up at `rate` held to a repeat whose µs per inference agrees (one more run when it does not). */
async function confirmAt(search: KneeSearch, rate: number): Promise<{ held: string } | "not held" | { stop: string } | { disagree: string }> {
  const v = await repeatAt(search, rate);
  if (v.kind === "stop") return { stop: v.reason };
  if (v.kind !== "keep-up") return "not held";
  const costs = costsAt(search.steps, rate);
  if (!costsHold(costs)) {
    return {
      disagree:
        `${fmt(rate)}/s kept up on its repeats but its cost did not repeat ` +
        `(${microsList(costs)}, more than ${COST_REPEAT_SPREAD * 100}% apart)`,
    };
  }
  const held = `${fmt(rate)}/s kept up and held on a repeat at ${microsList(costs)}`;
  return { held: v.atSpeed === undefined ? held : `${held} (${v.atSpeed})` };
}

/** Where a bisection up may go: the drain ceiling or gendata's cap, and whether it is gendata's. */
interface UpperBound { rate: number; byGendata: boolean }

/**
 * The drain ceiling as a bound (its rate and margin), with the drain's own rate and what it needs
 * to be read at another speed; gendata's cap: a bound as it is.
 */
type Bound = UpperBound & { gendataCap: number; drain?: { rate: number; speed?: number } };

/**
 * The bound at the speed the keep-up at `lo` ran at. A record's CPU cost follows the machine's
 * speed (the model behind µs at the reference speed), so a drain read while the machine was more
 * than MACHINE_SLOWER_SHARE slower than at that keep-up bounds the search only at the rate it
 * would have drained at the keep-up's speed, never above gendata's cap: a drain in a slow minute
 * would otherwise hold the search under a knee the product reaches in a usual one.
 */
function boundAt(bound: Bound, s: KneeSearch, lo: number): UpperBound {
  const keptUp = s.steps.filter((st) => st.rate === lo && st.regime === "keep-up" && st.speedIndex !== undefined);
  const drainSlower = bound.drain?.speed !== undefined ? slowerMachine({ speedIndex: bound.drain.speed }, keptUp[keptUp.length - 1]?.speedIndex) : undefined;
  if (bound.drain === undefined || drainSlower === undefined) return { rate: bound.rate, byGendata: bound.byGendata };
  const atSpeed = bound.rate * (drainSlower.usual / drainSlower.speed);
  return atSpeed < bound.gendataCap ? { rate: atSpeed, byGendata: false } : { rate: bound.gendataCap, byGendata: true };
}

/**
 * A paced keep-up at or above the drain's own rate (read at that keep-up's speed, as boundAt reads
 * it) shows that the drain read the product's ceiling low: from there the drain bounds nothing and
 * only what saturates, or gendata's cap, closes the bracket, so a bracket's top is always a rate a
 * step ran.
 */
function drainReadLow(bound: Bound, s: KneeSearch, lo: number): boolean {
  if (bound.drain === undefined || bound.byGendata) return false;
  return lo >= boundAt({ ...bound, rate: bound.drain.rate }, s, lo).rate;
}

/** The highest rate of roundRate's three significant digits not above `rate`: a step up by the resolution that saturates closes the bracket. */
function rateAtMost(rate: number): number {
  const unit = 10 ** Math.max(0, Math.floor(Math.log10(rate)) - 2);
  return Math.floor(rate / unit) * unit;
}

/**
 * Where the bisection up goes next from a keep-up at `lo`, or the rate it ends at. `unreachable`:
 * rates gendata could not offer beside the product, upper ends as a saturated rate is (the rates
 * between are still tried), but of gendata's, not the product's.
 */
function nextUp(
  s: KneeSearch, lo: number, bound: Bound, resolution: number, unreachable: readonly number[],
): { rate: number } | { end: { rate: number; byGendata: boolean } } {
  const readLow = drainReadLow(bound, s, lo);
  const atSpeed = readLow ? { rate: bound.gendataCap, byGendata: true } : boundAt(bound, s, lo);
  const cap = roundRate(atSpeed.rate);
  const saturatedAbove = [...s.saturatedAt].filter((r) => r > lo);
  const shortAbove = unreachable.filter((r) => r > lo);
  const hi = Math.min(...saturatedAbove, ...shortAbove, cap);
  const byGendata = !saturatedAbove.includes(hi) && (shortAbove.includes(hi) || (hi === cap && atSpeed.byGendata));
  const end = { end: { rate: lo, byGendata } };
  if (hi <= lo * (1 + resolution)) return end;
  const next = saturatedAbove.length + shortAbove.length > 0 ? roundRate((lo + hi) / 2) : climbFrom(lo, hi, readLow, resolution);
  return next <= lo || next >= hi ? end : { rate: next };
}

/**
 * The next rate up from a keep-up at `lo` with nothing saturated above it, toward `hi`. Over a drain
 * read low, one resolution step (the knee is most often just above the drain); else halfway to
 * `hi`, but never past the sweep's climb factor: with a drain that bounds nothing (unsettled or
 * busy), `hi` is gendata's cap, and a step far past the knee leaves a backlog that can outlast the
 * drain's timeout and make the run invalid.
 */
function climbFrom(lo: number, hi: number, readLow: boolean, resolution: number): number {
  if (readLow) return rateAtMost(lo * (1 + resolution));
  return roundRate(Math.min((lo + hi) / 2, lo * DEFAULT_SWEEP.factor));
}

/**
 * From a keep-up at `rate`, bisect toward the lowest rate that saturated above it (else `bound`:
 * the drain ceiling or gendata's cap) until the two are within the resolution: a saturated paced
 * step consumes less than the product sustains (gendata and the broker share the cores with it),
 * so the rate it steps down to can sit well under the knee. Returns the highest rate that kept up,
 * and whether gendata (its cap, or a rate it could not offer) rather than the product stopped the
 * bisection; or why the search must stop, with the highest rate that had kept up.
 */
async function refineUp(
  s: KneeSearch, rate: number, bound: Bound, resolution: number,
): Promise<{ rate: number; byGendata: boolean } | { stop: string; keptUp: number }> {
  let lo = rate;
  const unreachable: number[] = [];
  for (;;) {
    const next = nextUp(s, lo, bound, resolution, unreachable);
    if ("end" in next) return next.end;
    const v = await s.measure(next.rate, "paced");
    if (v.kind === "stop") return { stop: v.reason, keptUp: lo };
    // Gendata could not offer it beside the product: nothing above it can be tried, the rates under it still can.
    if (v.kind === "unreachable") unreachable.push(next.rate);
    if (v.kind === "keep-up") lo = next.rate;
  }
}

/** The drain measured the product's own ceiling: it was settled and quiet, and the product did not read as fast as gendata wrote. */
function drainBounds(opts: FastKneeOptions): boolean {
  return opts.ceilingByGendata !== true && opts.ceilingUnsettled !== true;
}

/**
 * How far above the drain's rate a paced step may still be tried: the drain's figure comes from a
 * window of 10–15 s, which reads a longer window's rate within about ±5 %, and a bound read low
 * stops the bisection under the knee.
 */
export const DRAIN_BOUND_MARGIN = 0.05;

/**
 * No paced rate is offered above gendata's cap (under an outpaced drain, the rate gendata reached), nor sustained above a
 * drain ceiling (and its margin) that bounds the product.
 */
function upperBound(opts: FastKneeOptions): Bound {
  if (drainBounds(opts) && opts.ceiling < opts.gendataCap) {
    const rate = Math.min(opts.ceiling * (1 + DRAIN_BOUND_MARGIN), opts.gendataCap);
    const speed = opts.ceilingSpeed !== undefined && opts.ceilingSpeed > 0 ? { speed: opts.ceilingSpeed } : {};
    return { rate, byGendata: false, gendataCap: opts.gendataCap, drain: { rate: opts.ceiling, ...speed } };
  }
  return { rate: opts.ceilingByGendata === true ? Math.min(opts.ceiling, opts.gendataCap) : opts.gendataCap, byGendata: true, gendataCap: opts.gendataCap };
}

/** Paced steps from `rate` down until one keeps up, or why the search must stop. */
async function firstKeepUp(s: KneeSearch, start: { rate: number; byGendata: boolean }): Promise<{ rate: number; byGendata: boolean } | { stop: string }> {
  let { rate, byGendata } = start;
  for (;;) {
    const v = await s.measure(rate, "paced");
    if (v.kind === "stop") return { stop: v.reason };
    if (v.kind === "keep-up") return { rate, byGendata };
    // Saturated, or gendata could not offer it beside the product: lower, toward what was achieved.
    if (v.kind === "unreachable") byGendata = true;
    const next = nextRateDown(s.steps[s.steps.length - 1] as StepOutcome);
    if (next < 1 || next >= rate) return { stop: `no rate under ${fmt(rate)}/s is left to try` };
    rate = next;
  }
}

async function search(s: KneeSearch, opts: FastKneeOptions): Promise<Found> {
  let next = { ...firstPacedRate(opts), keptUp: false };
  for (;;) {
    const from = next.keptUp ? next : await firstKeepUp(s, next);
    if ("stop" in from) return { confirmed: false, stop: from.stop, atLeast: false };
    const refined = await refineUp(s, from.rate, upperBound(opts), opts.resolution ?? KNEE_RESOLUTION);
    // Stopped on the way up (the cap of runs, a failed step): the highest rate that kept up is the knee, not confirmed, as when a confirm is cut short.
    if ("stop" in refined) {
      return { knee: refined.keptUp, confirmed: false, stop: `${fmt(refined.keptUp)}/s kept up but was not confirmed: ${refined.stop}`, atLeast: false };
    }
    const rate = refined.rate;
    const byGendata = from.byGendata || refined.byGendata;
    if (opts.confirm === false) return { knee: rate, confirmed: false, stop: `${fmt(rate)}/s kept up; the rounds run it again`, atLeast: byGendata };
    const held = await confirmAt(s, rate);
    if (typeof held === "object" && "held" in held) return { knee: rate, confirmed: true, stop: held.held, atLeast: byGendata };
    if (typeof held === "object" && "stop" in held) {
      return { knee: rate, confirmed: false, stop: `${fmt(rate)}/s kept up but was not confirmed: ${held.stop}`, atLeast: byGendata };
    }
    if (typeof held === "object") return { knee: rate, confirmed: false, stop: held.disagree, atLeast: byGendata };
    const lower = keptUpUnder(s, rate);
    next = { rate: lower ?? roundRate(rate * DOWN_SHARE), byGendata, keptUp: lower !== undefined };
  }
}

/**
 * The knee from a ceiling, with paced runs (`runAt`). The result has the sweep's shape (steps,
 * knee, ceiling, confirmed, stoppedBecause), so the page renders both alike.
 */
export async function findKneeFromCeiling(
  runAt: (rate: number, purpose: StepPurpose) => Promise<StepOutcome>,
  opts: FastKneeOptions,
  speed?: BenchSpeed,
): Promise<SweepResult> {
  if (!(opts.ceiling > 0) || !(opts.gendataCap > 0)) {
    throw new RangeError(`a fast search needs a ceiling and a gendata cap above 0 (got ${JSON.stringify(opts)})`);
  }
  const s = new KneeSearch(runAt, MAX_FAST_STEPS, speed);
  const found = await search(s, opts);
  const invalid = s.steps.some((st) => st.invalid !== undefined);
  // A product that did not do the work at some rate gets no knee: its figures are not results.
  const knee = invalid ? undefined : found.knee;
  const bound = knee !== undefined && found.atLeast ? `; gendata could not offer more beside the product, so the knee is at least ${fmt(knee)}/s` : "";
  const withdrawn = invalid ? "; no knee is reported for a product with an invalid run" : "";
  const readLow = drainWasReadLow(opts, s, knee);
  const readLowText = readLow ? `; paced, it kept up at or above the drain's rate, so the drain read its ceiling low and did not bound the search` : "";
  return {
    steps: s.steps,
    ...(knee !== undefined ? { knee } : {}),
    ceiling: opts.ceiling,
    confirmed: knee !== undefined && found.confirmed,
    stoppedBecause: `drain ceiling ${fmt(opts.ceiling)}/s; ${found.stop}${readLowText}${bound}${withdrawn}.`,
    // A ceiling that is gendata's (the product read as fast as it wrote) bounds gendata, not the product, an unsettled one
    // nothing, and one a keep-up passed nothing either: no upper end from it.
    ...(drainBounds(opts) && !readLow ? withDrainBound(kneeFigures(s.steps, knee), drainBoundAt(opts, s, knee)) : kneeFigures(s.steps, knee)),
  };
}

/** Some keep-up at or under the knee showed the drain read low (drainReadLow), so the search went past the drain's bound. */
function drainWasReadLow(opts: FastKneeOptions, s: KneeSearch, knee: number | undefined): boolean {
  if (knee === undefined) return false;
  const bound = upperBound(opts);
  return [...s.keptUp].some((rate) => rate <= knee && drainReadLow(bound, s, rate));
}

/** The drain's bound at the knee's speed (boundAt), the one the bisection stopped under; undefined when gendata's cap stood in for it. */
function drainBoundAt(opts: FastKneeOptions, s: KneeSearch, knee: number | undefined): number | undefined {
  if (knee === undefined) return undefined;
  const bound = boundAt(upperBound(opts), s, knee);
  return bound.byGendata ? undefined : bound.rate;
}

/**
 * No paced rate can be kept up above what the product drains at: the drain's bound (its rate and margin, at the knee's
 * speed) closes a bracket that no paced step closed lower.
 */
function withDrainBound(figures: ReturnType<typeof kneeFigures>, ceiling: number | undefined): ReturnType<typeof kneeFigures> {
  const b = figures.bracket;
  if (b === undefined || ceiling === undefined || (b.saturated !== undefined && b.saturated <= ceiling) || ceiling <= b.keptUp) return figures;
  return { ...figures, bracket: { keptUp: b.keptUp, saturated: roundRate(ceiling) } };
}
