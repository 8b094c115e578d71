/**
 * Finding a product's knee: the highest offered rate it sustains. Each step is one real measured
 * run (`runAt`), so the search is short, and it is written against what makes other benches'
 * rate finders report nonsense: a warmup backlog read as headroom, a load generator's limit read
 * as the product's, one lucky run on a noisy 2-core machine read as capacity, a run on a busy
 * machine read as the product's speed, a run that lost or mis-scored records read as a result,
 * and loops that never end.
 */
import type { Regime } from "../results/types.ts";

export interface StepOutcome {
  rate: number;             // offered rate asked for
  offeredPerSec: number;    // what gendata actually delivered
  consumedPerSec: number;
  regime: Regime;
  /** gendata could not reach the asked rate (offered well under rate): the step says nothing about the product. */
  gendataShort: boolean;
  /** the run failed (crash/hang): stop the sweep. */
  failed?: string;
  /** the bench itself was interrupted ("interrupted by SIGTERM"): stop the sweep; says nothing about the product. */
  interrupted?: string;
  /** the run did not do the work (verification, lost or mis-scored records, undrained): stop the sweep. */
  invalid?: string;
  /** the machine was not quiet or had slowed down: the step is run again (bounded), never a knee. */
  noisy?: string;
  /** the backlog never settled before the window: never a knee. */
  unsettled?: boolean;
  /** µs CPU per inference over the window: a knee's repeat must agree with it. */
  cpuMicrosPerInference?: number;
}

export interface SweepOptions { startRate: number; factor: number; maxRate: number; refineSteps: number; confirm: boolean; }

/** climb/refine/confirm: the sweep; paced: the fast search's step below a drain run's ceiling (drain is that run). */
export type StepPurpose = "climb" | "refine" | "confirm" | "paced";

export interface SweepResult {
  steps: Array<StepOutcome & { purpose: StepPurpose }>;
  knee?: number;            // highest confirmed keep-up rate
  ceiling?: number;         // consumed/s of saturated runs (the max over them), the product's capacity
  confirmed: boolean;
  stoppedBecause: string;   // human sentence for the page
}

export const DEFAULT_SWEEP: SweepOptions = { startRate: 5000, factor: 2, maxRate: 1_000_000, refineSteps: 2, confirm: true };

/** Hard cap on runs (draining repeats and confirms included): every run costs minutes. */
export const MAX_STEPS = 20;
/** How many times a knee that fails its confirm repeat may step down before the sweep gives up. */
export const MAX_STEP_DOWNS = 2;
/** How many times one step is run again because the machine was noisy before the sweep gives up. */
export const MAX_NOISY_REPEATS = 2;
/**
 * Two keep-up runs at one rate agree when their µs CPU per inference differ by at most this
 * share of the lower. Products' own repeat spread on quiet machines of this kind was 2–10 %
 * (2026-12-01, a second machine: one Python row at 10k/s 26.0 / 26.7 / 26.4 µs, the reference row at 100k/s 7.57–9.39 µs); a cost
 * outside it is evidence that something disturbed one of the runs.
 */
export const COST_REPEAT_SPREAD = 0.1;

/** The pair of costs closest together agrees within COST_REPEAT_SPREAD (fewer than two: nothing to disagree). */
export function costsAgree(costs: readonly number[]): boolean {
  if (costs.length < 2) return true;
  const sorted = [...costs].sort((a, b) => a - b);
  return sorted.slice(1).some((c, i) => c <= (sorted[i] as number) * (1 + COST_REPEAT_SPREAD));
}

/**
 * 3 significant figures, whole records/s: finer rates are below run-to-run noise, and gendata
 * takes whole rates.
 */
export function roundRate(rate: number): number {
  return Math.max(1, Math.round(Number(rate.toPrecision(3))));
}

export function fmt(n: number): string {
  return String(n >= 100 ? Math.round(n) : Number(n.toPrecision(3)));
}

/** unreachable: gendata could not offer the rate, so the step bounds the search without saying anything of the product. */
export type Verdict = { kind: "keep-up" | "saturated" } | { kind: "unreachable"; reason: string } | { kind: "stop"; reason: string };

/** The runs of one search and what they said of each rate; `measure` is the one way a rate is run. */
export class KneeSearch {
  readonly steps: SweepResult["steps"] = [];
  readonly keptUp = new Set<number>();
  // A rate that was saturated even once is never offered as a knee again: the noise we guard
  // against is lucky keep-ups, not unlucky saturations.
  readonly saturatedAt = new Set<number>();

  constructor(
    private readonly runAt: (rate: number, purpose: StepPurpose) => Promise<StepOutcome>,
    private readonly maxSteps = MAX_STEPS,
  ) {}

  /** One run, repeated while the machine was noisy (bounded); a stop for what ends the sweep. */
  private async once(rate: number, purpose: StepPurpose): Promise<StepOutcome | { stop: string }> {
    let outcome: StepOutcome | undefined;
    for (let noisyRepeats = 0; ; noisyRepeats++) {
      if (this.steps.length >= this.maxSteps) return { stop: `the search hit its cap of ${this.maxSteps} runs` };
      outcome = await this.runAt(rate, purpose);
      this.steps.push({ ...outcome, purpose });
      // A rate gendata cannot reach is not run again for noise: the repeat would fall short too.
      if (outcome.noisy === undefined || outcome.failed !== undefined || outcome.invalid !== undefined || outcome.interrupted !== undefined || outcome.gendataShort) break;
      if (noisyRepeats >= MAX_NOISY_REPEATS) {
        return { stop: `the machine stayed noisy at ${fmt(rate)}/s over ${noisyRepeats + 1} runs (${outcome.noisy}): no figure from it is kept` };
      }
    }
    if (outcome.interrupted !== undefined) return { stop: `the bench was ${outcome.interrupted} during the run at ${fmt(rate)}/s` };
    if (outcome.failed !== undefined) return { stop: `the run at ${fmt(rate)}/s failed: ${outcome.failed}` };
    if (outcome.invalid !== undefined) return { stop: `the run at ${fmt(rate)}/s was invalid: ${outcome.invalid}` };
    return outcome;
  }

  /**
   * One verdict about the product at `rate`. Only a settled keep-up run counts as keeping up; a
   * draining or unsettled run is run once more, and if it is still not a settled keep-up the
   * rate is not sustainable (it never becomes a knee, and its catch-up CPU is never a row).
   */
  readonly measure = async (rate: number, purpose: StepPurpose): Promise<Verdict> => {
    const sustained = (o: StepOutcome): boolean => o.regime === "keep-up" && o.unsettled !== true;
    let outcome = await this.once(rate, purpose);
    if ("stop" in outcome) return { kind: "stop", reason: outcome.stop };
    if (outcome.gendataShort) return { kind: "unreachable", reason: unreachable(outcome) };
    if (!sustained(outcome) && outcome.regime !== "saturated") {
      outcome = await this.once(rate, purpose);
      if ("stop" in outcome) return { kind: "stop", reason: outcome.stop };
      if (outcome.gendataShort) return { kind: "unreachable", reason: unreachable(outcome) };
    }
    const kind = sustained(outcome) ? "keep-up" : "saturated";
    (kind === "keep-up" ? this.keptUp : this.saturatedAt).add(rate);
    return { kind };
  };
}

const unreachable = (o: StepOutcome): string => `gendata could not reach ${fmt(o.rate)}/s (it delivered ${fmt(o.offeredPerSec)}/s), so the product was not pushed further`;

interface Bracket {
  /** Highest keep-up rate below hi. */
  lo?: number;
  /** Lowest saturated (or, see shortOfHi, unreachable) rate. */
  hi?: number;
  /** hi is a rate gendata could not reach, not one the product failed at. */
  shortOfHi?: string;
  stop?: string;
}

/** Climb geometrically until saturated, unreachable or at maxRate. */
async function climb(search: KneeSearch, opts: SweepOptions): Promise<Bracket> {
  const b: Bracket = {};
  let rate = roundRate(opts.startRate);
  for (;;) {
    const v = await search.measure(rate, "climb");
    if (v.kind === "stop") return { ...b, stop: v.reason };
    // Nothing kept up yet at an unreachable rate: there is no rate between to look at.
    if (v.kind === "unreachable") return b.lo === undefined ? { ...b, stop: v.reason } : { ...b, hi: rate, shortOfHi: v.reason };
    if (v.kind === "saturated") return { ...b, hi: rate };
    b.lo = rate;
    if (rate >= opts.maxRate) return { ...b, stop: `the product kept up at the sweep's maximum of ${fmt(opts.maxRate)}/s` };
    rate = Math.min(opts.maxRate, Math.max(rate + 1, roundRate(rate * opts.factor)));
  }
}

/** Saturated at the very first rate: come down geometrically until something keeps up. */
async function descend(search: KneeSearch, b: Bracket, factor: number): Promise<Bracket> {
  while (b.stop === undefined && b.lo === undefined && b.hi !== undefined) {
    const next = roundRate(b.hi / factor);
    if (next >= b.hi) return { ...b, stop: `the product was saturated even at ${fmt(b.hi)}/s` };
    const v = await search.measure(next, "climb");
    if (v.kind === "stop" || v.kind === "unreachable") b = { ...b, stop: v.reason };
    else if (v.kind === "saturated") b = { ...b, hi: next };
    else b = { ...b, lo: next };
  }
  return b;
}

/**
 * Bisect between the last keep-up and the first saturated rate, or the first rate gendata could
 * not reach: below that one, gendata may still offer enough to learn something. `bracketed`:
 * the knee lies between lo and a saturated hi, not merely "at least lo".
 */
async function bisect(search: KneeSearch, b: Bracket, refineSteps: number): Promise<Bracket & { bracketed: boolean }> {
  let { lo, hi, shortOfHi, stop } = b;
  if (stop !== undefined || lo === undefined || hi === undefined) return { ...b, bracketed: false };
  for (let i = 0; i < refineSteps; i++) {
    const mid = roundRate((lo + hi) / 2);
    if (mid <= lo || mid >= hi) break; // below the rounding: no finer answer exists
    const v = await search.measure(mid, "refine");
    if (v.kind === "stop") { stop = v.reason; break; }
    if (v.kind === "keep-up") lo = mid;
    else if (v.kind === "unreachable") { hi = mid; shortOfHi = v.reason; }
    else { hi = mid; shortOfHi = undefined; }
  }
  if (stop !== undefined) return { lo, hi, stop, bracketed: false };
  if (shortOfHi !== undefined) return { lo, hi, stop: shortOfHi, bracketed: false };
  return { lo, hi, stop: `the product saturated at ${fmt(hi)}/s and kept up at ${fmt(lo)}/s`, bracketed: true };
}

/** Why a found knee is not run again to confirm it, if it is not. */
function noConfirmBecause(steps: SweepResult["steps"], stop: string, confirm: boolean): string | undefined {
  if (!confirm) return "; not confirmed (confirm is off)";
  if (steps[steps.length - 1]?.interrupted !== undefined) return "; not confirmed (the bench was interrupted)";
  if (steps[steps.length - 1]?.failed !== undefined) return "; not confirmed (a failed product is not run again)";
  if (steps.some((s) => s.invalid !== undefined)) return ""; // an invalid run withdraws the knee below
  if (stop.startsWith("the machine stayed noisy")) return "; not confirmed (the machine was noisy)";
  if (steps.length >= MAX_STEPS) return "; not confirmed (no runs left)";
  return undefined;
}

export async function findKnee(
  runAt: (rate: number, purpose: StepPurpose) => Promise<StepOutcome>,
  opts: SweepOptions,
): Promise<SweepResult> {
  const { startRate, factor, maxRate, refineSteps } = opts;
  if (!(startRate > 0) || !(factor > 1) || !(maxRate >= startRate) || !(refineSteps >= 0)) {
    throw new RangeError(`a sweep needs startRate > 0, factor > 1, maxRate >= startRate, refineSteps >= 0 (got ${JSON.stringify(opts)})`);
  }
  const search = new KneeSearch(runAt);
  const { steps } = search;
  const found = await bisect(search, await descend(search, await climb(search, opts), factor), refineSteps);
  const stop = found.stop ?? "the sweep found no rate the product keeps up with";

  let knee = found.lo;
  let confirmed = false;
  let note = "";
  let neverHeld = false;
  if (knee !== undefined) {
    const skip = noConfirmBecause(steps, stop, opts.confirm);
    if (skip !== undefined) note = skip;
    else ({ knee, confirmed, note, neverHeld } = await confirmKnee(knee, { steps, keptUp: search.keptUp, saturatedAt: search.saturatedAt, measure: search.measure, factor }));
  }
  if (steps.some((s) => s.invalid !== undefined)) {
    // A product that did not do the work at some rate gets no knee: its figures are not results.
    knee = undefined;
    confirmed = false;
    note = "; no knee is reported for a product with an invalid run";
  }
  const ceilings = steps
    .filter((s) => s.regime === "saturated" && !s.gendataShort && s.failed === undefined && s.interrupted === undefined && s.invalid === undefined && s.noisy === undefined)
    .map((s) => s.consumedPerSec);
  const bound = knee !== undefined && !found.bracketed && !neverHeld ? `; the knee is at least ${fmt(knee)}/s` : "";
  return {
    steps,
    knee,
    ceiling: ceilings.length > 0 ? Math.max(...ceilings) : undefined,
    confirmed,
    stoppedBecause: `${stop}${bound}${note}.`,
  };
}

interface ConfirmContext {
  steps: SweepResult["steps"];
  keptUp: ReadonlySet<number>;
  saturatedAt: ReadonlySet<number>;
  measure: (rate: number, purpose: StepPurpose) => Promise<Verdict>;
  factor: number;
}

/** µs per inference of the settled, quiet keep-up runs at `rate` so far. */
export function costsAt(steps: SweepResult["steps"], rate: number): number[] {
  return steps
    .filter((s) => s.rate === rate && s.regime === "keep-up" && s.unsettled !== true && s.noisy === undefined && s.cpuMicrosPerInference !== undefined)
    .map((s) => s.cpuMicrosPerInference as number);
}

export const microsList = (costs: readonly number[]): string => costs.map((c) => c.toFixed(1)).join(" / ");

/**
 * One keep-up on a 2-core machine can be luck: the knee must hold on a repeat, and cost what it
 * cost before (within COST_REPEAT_SPREAD). A repeat that keeps up at another cost gets one more
 * run; a rate that does not hold steps down, at most MAX_STEP_DOWNS times.
 */
async function confirmKnee(start: number, ctx: ConfirmContext): Promise<{ knee: number; confirmed: boolean; note: string; neverHeld: boolean }> {
  // Each rate that did not confirm, and why: it did not hold, or gendata could not offer it again.
  const rejected: Array<{ rate: number; short: boolean }> = [];
  let knee = start;
  const tried = (): string => rejected.map((r) => `${fmt(r.rate)}/s${r.short ? " (gendata short on the repeat)" : ""}`).join(", ");
  const triedNote = (): string => `; no knee held on a repeat (tried ${tried()})`;
  for (let stepDowns = 0; ; stepDowns++) {
    let v = await ctx.measure(knee, "confirm");
    if (v.kind === "keep-up" && !costsAgree(costsAt(ctx.steps, knee))) v = await ctx.measure(knee, "confirm");
    if (v.kind === "stop") return { knee, confirmed: false, note: `; ${fmt(knee)}/s was not confirmed: ${v.reason}`, neverHeld: false };
    if (v.kind === "keep-up") {
      const costs = costsAt(ctx.steps, knee);
      if (!costsAgree(costs)) {
        return { knee, confirmed: false, note: `; ${fmt(knee)}/s kept up on its repeats but its cost did not repeat (${microsList(costs)} µs per inference, more than ${COST_REPEAT_SPREAD * 100}% apart)`, neverHeld: false };
      }
      const agreed = costs.length >= 2 ? ` at ${microsList(costs)} µs per inference` : "";
      const note = rejected.length === 0 ? `; ${fmt(knee)}/s held on a repeat${agreed}` : `; ${tried()} did not hold on a repeat, ${fmt(knee)}/s did${agreed}`;
      return { knee, confirmed: true, note, neverHeld: false };
    }
    // A repeat gendata could not offer (on 2 cores it competes with the product) says nothing of
    // the product: like one that did not hold, the knee steps down to a rate that can be repeated.
    rejected.push({ rate: knee, short: v.kind === "unreachable" });
    // Reported as the most conservative rate that kept up at least once, flagged unconfirmed.
    if (stepDowns >= MAX_STEP_DOWNS) return { knee, confirmed: false, note: triedNote(), neverHeld: true };
    const current = knee;
    const lower = [...ctx.keptUp].filter((r) => r < current && !ctx.saturatedAt.has(r));
    knee = lower.length > 0 ? Math.max(...lower) : roundRate(current / ctx.factor);
    if (knee >= current) return { knee, confirmed: false, note: triedNote(), neverHeld: true };
  }
}
