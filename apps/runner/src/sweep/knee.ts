/**
 * Finding a product's knee: the highest offered rate it sustains. Each step is one real measured
 * run (`runAt`), so the search is short, and it is written against what makes other benches'
 * rate finders report nonsense: a warmup backlog read as headroom, a load generator's limit read
 * as the product's, one lucky run on a noisy 2-core machine read as capacity, a run on a busy
 * machine read as the product's speed, a run that lost or mis-scored records read as a result,
 * and loops that never end.
 */
import { median } from "../metrics/stats.ts";
import { atReferenceSpeed } from "../run/speed-index.ts";
import { countsAsRun, keepsUpAtSpeed, rateAtReference, slowerMachine, usualAcross, usualSpeed, type Slower } from "./machine-speed.ts";
import type { BenchSpeed } from "./speed-wait.ts";
import type { SearchStep, StepOutcome, StepPurpose, SweepOptions, SweepResult, Verdict } from "./step.ts";

export type { SearchStep, StepOutcome, StepPurpose, SweepOptions, SweepResult, Verdict } from "./step.ts";

/**
 * Bisection stops when the bracket's high end is within 10 % of its low end: finer than that is
 * below what a 2-core machine's minute-to-minute speed lets a run tell apart.
 */
export const KNEE_RESOLUTION = 0.1;

export const DEFAULT_SWEEP: SweepOptions = { startRate: 5000, factor: 2, maxRate: 1_000_000, refineSteps: 6, resolution: KNEE_RESOLUTION, confirm: true };

/** Hard cap on runs (draining repeats and confirms included): every run costs minutes. */
export const MAX_STEPS = 20;
/** How many times a knee that fails its confirm repeat may step down before the sweep gives up. */
export const MAX_STEP_DOWNS = 2;
/** How many times one step is run again because the machine was noisy before the sweep gives up. */
export const MAX_NOISY_REPEATS = 2;
/**
 * Two keep-up runs at one rate agree when their µs CPU per inference differ by at most this
 * share of the lower. A product's own repeat spread on a quiet machine of this kind lies within
 * it; a cost outside it is evidence that something disturbed one of the runs.
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
    /** The bench's usual speed, and before a step that ran markedly slower is run again, a wait for the machine to come back (speed-wait.ts). */
    private readonly speed?: BenchSpeed,
  ) {}

  /** One run, repeated while the machine was noisy (bounded); a stop for what ends the sweep. */
  private async once(rate: number, purpose: StepPurpose): Promise<StepOutcome | { stop: string }> {
    let outcome: StepOutcome | undefined;
    for (let noisyRepeats = 0; ; noisyRepeats++) {
      if (this.steps.length >= this.maxSteps) return { stop: `the search hit its cap of ${this.maxSteps} runs` };
      outcome = await this.runAt(rate, purpose);
      this.steps.push({ ...outcome, purpose });
      // A rate gendata cannot reach is not run again for noise: the repeat would fall short too.
      if (
        outcome.noisy === undefined ||
        outcome.failed !== undefined ||
        outcome.invalid !== undefined ||
        outcome.interrupted !== undefined ||
        outcome.gendataShort
      ) break;
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
   * rate is not sustainable (it never becomes a knee, and its catch-up CPU is never a row). A
   * run that saturated while the machine was markedly slower than usual is run once more, once
   * the machine is back (BenchSpeed.wait, bounded); a confirm still slower on that repeat is judged
   * at the usual speed.
   */
  readonly measure = async (rate: number, purpose: StepPurpose): Promise<Verdict> => {
    let outcome = await this.settledRun(rate, purpose);
    if ("kind" in outcome) return outcome;
    let atSpeed: string | undefined;
    const slower = sustained(outcome) ? undefined : this.slowerThanUsual(rate);
    if (slower !== undefined) {
      await this.waitedForSpeed(slower);
      outcome = await this.settledRun(rate, purpose);
      if ("kind" in outcome) return outcome;
      const still = sustained(outcome) ? undefined : this.slowerThanUsual(rate);
      if (still !== undefined && purpose === "confirm" && keepsUpAtSpeed(outcome, still)) atSpeed = this.judgedAtSpeed(outcome, still);
    }
    const kind = sustained(outcome) || atSpeed !== undefined ? "keep-up" : "saturated";
    (kind === "keep-up" ? this.keptUp : this.saturatedAt).add(rate);
    return atSpeed !== undefined ? { kind: "keep-up", atSpeed } : { kind };
  };

  /** A run, and once more when it was draining or unsettled; a stop or unreachable verdict instead when that ends it. */
  private async settledRun(rate: number, purpose: StepPurpose): Promise<StepOutcome | Verdict> {
    let outcome = await this.once(rate, purpose);
    if ("stop" in outcome) return { kind: "stop", reason: outcome.stop };
    if (outcome.gendataShort) return { kind: "unreachable", reason: unreachable(outcome) };
    if (!sustained(outcome) && outcome.regime !== "saturated") {
      outcome = await this.once(rate, purpose);
      if ("stop" in outcome) return { kind: "stop", reason: outcome.stop };
      if (outcome.gendataShort) return { kind: "unreachable", reason: unreachable(outcome) };
    }
    return outcome;
  }

  /** The wait for the machine to come back, noted on the slower step in place of "run again". */
  private async waitedForSpeed(slower: Slower): Promise<void> {
    if (this.speed === undefined) return;
    const last = this.steps[this.steps.length - 1] as SearchStep;
    last.rerun = await this.speed.wait(slower.usual);
  }

  /** Whether the last run's machine was markedly slower than usual for `rate`; if so the step says so. */
  private slowerThanUsual(rate: number): Slower | undefined {
    const last = this.steps[this.steps.length - 1] as SearchStep;
    const slower = slowerMachine(last, usualAcross(usualSpeed(this.steps.slice(0, -1), rate), this.speed?.usual()));
    if (slower !== undefined) last.slower = slower.text;
    return slower;
  }

  private judgedAtSpeed(outcome: StepOutcome, slower: Slower): string {
    (this.steps[this.steps.length - 1] as SearchStep).keptUpAtSpeed = true;
    const scaled = outcome.consumedPerSec * (slower.usual / slower.speed);
    return (
      `it saturated on a run and its repeat while the machine was slower (${slower.text}); ` +
      `the repeat's ${fmt(outcome.consumedPerSec)}/s is ${fmt(scaled)}/s at the usual speed, so it held judged at speed`
    );
  }
}

const sustained = (o: StepOutcome): boolean => o.regime === "keep-up" && o.unsettled !== true;

const unreachable = (o: StepOutcome): string =>
  `gendata could not reach ${fmt(o.rate)}/s (it delivered ${fmt(o.offeredPerSec)}/s), so the product was not pushed further`;

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
async function bisect(search: KneeSearch, b: Bracket, opts: Pick<SweepOptions, "refineSteps" | "resolution">): Promise<Bracket & { bracketed: boolean }> {
  let { lo, hi, shortOfHi, stop } = b;
  if (stop !== undefined || lo === undefined || hi === undefined) return { ...b, bracketed: false };
  for (let i = 0; i < opts.refineSteps && hi > lo * (1 + opts.resolution); i++) {
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
  speed?: BenchSpeed,
): Promise<SweepResult> {
  const { startRate, factor, maxRate, refineSteps, resolution } = opts;
  if (!(startRate > 0) || !(factor > 1) || !(maxRate >= startRate) || !(refineSteps >= 0) || !(resolution > 0)) {
    throw new RangeError(`a sweep needs startRate > 0, factor > 1, maxRate >= startRate, refineSteps >= 0, resolution > 0 (got ${JSON.stringify(opts)})`);
  }
  const search = new KneeSearch(runAt, MAX_STEPS, speed);
  const { steps } = search;
  const found = await bisect(search, await descend(search, await climb(search, opts), factor), opts);
  const stop = found.stop ?? "the sweep found no rate the product keeps up with";

  let knee = found.lo;
  let confirmed = false;
  let note = "";
  let neverHeld = false;
  if (knee !== undefined) {
    const skip = noConfirmBecause(steps, stop, opts.confirm);
    if (skip !== undefined) note = skip;
    else ({ knee, confirmed, note, neverHeld } = await confirmKnee(knee, search, opts));
  }
  if (steps.some((s) => s.invalid !== undefined)) {
    // A product that did not do the work at some rate gets no knee: its figures are not results.
    knee = undefined;
    confirmed = false;
    note = "; no knee is reported for a product with an invalid run";
  }
  const ceilings = steps.filter((s) => s.regime === "saturated" && !s.gendataShort && countsAsRun(s)).map((s) => s.consumedPerSec);
  const bound = knee !== undefined && !found.bracketed && !neverHeld ? `; the knee is at least ${fmt(knee)}/s` : "";
  return {
    steps,
    knee,
    ceiling: ceilings.length > 0 ? Math.max(...ceilings) : undefined,
    confirmed,
    stoppedBecause: `${stop}${bound}${note}.`,
    ...kneeFigures(steps, knee),
  };
}

/** The knee's bracket and the knee at the reference speed, from the search's steps. */
export function kneeFigures(steps: readonly SearchStep[], knee: number | undefined): Pick<SweepResult, "bracket" | "kneeAtReference"> {
  if (knee === undefined) return {};
  const above = steps
    .filter((s) => s.rate > knee && s.regime === "saturated" && !s.gendataShort && s.keptUpAtSpeed !== true && countsAsRun(s))
    .map((s) => s.rate);
  const speeds = steps.filter((s) => s.rate === knee && sustained(s) && countsAsRun(s) && s.speedIndex !== undefined).map((s) => s.speedIndex as number);
  return {
    bracket: { keptUp: knee, ...(above.length > 0 ? { saturated: Math.min(...above) } : {}) },
    ...(speeds.length > 0 ? { kneeAtReference: rateAtReference(knee, median(speeds)) } : {}),
  };
}

/**
 * After a confirm at `failed` did not hold: the highest lower rate that kept up and never
 * saturated, where both searches go back to (stepDown here, the fast search in fast-knee.ts), so
 * that a bracket already within the resolution needs only that rate's confirm, not new steps
 * under the failure that the bracket had already ruled on.
 */
export function keptUpUnder(s: Pick<KneeSearch, "keptUp" | "saturatedAt">, failed: number): number | undefined {
  const lower = [...s.keptUp].filter((r) => r < failed && !s.saturatedAt.has(r));
  return lower.length > 0 ? Math.max(...lower) : undefined;
}

/**
 * Where the search goes when the knee did not hold: bisect between the highest lower rate that
 * kept up (or, with none, the first of a descent by `factor` that does) and the failed rate,
 * down to the resolution, so the next knee to confirm is one resolution step under the failure
 * rather than a whole climb step.
 */
async function stepDown(search: KneeSearch, failed: number, opts: SweepOptions): Promise<{ lo: number } | { stop: string }> {
  const lower = keptUpUnder(search, failed);
  const start: Bracket = lower !== undefined ? { lo: lower, hi: failed } : await descend(search, { hi: failed }, opts.factor);
  const b = await bisect(search, start, opts);
  if (b.lo === undefined) return { stop: b.stop ?? `nothing under ${fmt(failed)}/s kept up` };
  if (b.stop !== undefined && !b.bracketed && b.shortOfHi === undefined) return { stop: b.stop };
  return { lo: b.lo };
}

/**
 * The one confirm of both searches (this sweep's and fast-knee.ts'): the rate run again, and a
 * keep-up whose cost did not repeat (costsHold) run once more, so one disturbed run of the two
 * neither confirms a knee nor rejects it.
 */
export async function repeatAt(search: KneeSearch, rate: number): Promise<Verdict> {
  const v = await search.measure(rate, "confirm");
  if (v.kind === "keep-up" && !costsHold(costsAt(search.steps, rate))) return search.measure(rate, "confirm");
  return v;
}

/**
 * One keep-up on a 2-core machine can be luck: the knee must hold on a repeat, and cost what it
 * cost before (within COST_REPEAT_SPREAD, at the reference speed). A repeat that keeps up at
 * another cost gets one more run; a rate that does not hold steps down (stepDown), at most
 * MAX_STEP_DOWNS times.
 */
async function confirmKnee(
  start: number,
  search: KneeSearch,
  opts: SweepOptions,
): Promise<{ knee: number; confirmed: boolean; note: string; neverHeld: boolean }> {
  // Each rate that did not confirm, and why: it did not hold, or gendata could not offer it again.
  const rejected: Array<{ rate: number; short: boolean }> = [];
  let knee = start;
  const tried = (): string => rejected.map((r) => `${fmt(r.rate)}/s${r.short ? " (gendata short on the repeat)" : ""}`).join(", ");
  const triedNote = (): string => `; no knee held on a repeat (tried ${tried()})`;
  for (let stepDowns = 0; ; stepDowns++) {
    const v = await repeatAt(search, knee);
    if (v.kind === "stop") return { knee, confirmed: false, note: `; ${fmt(knee)}/s was not confirmed: ${v.reason}`, neverHeld: false };
    if (v.kind === "keep-up") return heldNote(search.steps, knee, v.atSpeed, rejected.length > 0 ? tried() : undefined);
    // A repeat gendata could not offer (on 2 cores it competes with the product) says nothing of
    // the product: like one that did not hold, the knee steps down to a rate that can be repeated.
    rejected.push({ rate: knee, short: v.kind === "unreachable" });
    // Reported as the most conservative rate that kept up at least once, flagged unconfirmed.
    if (stepDowns >= MAX_STEP_DOWNS) return { knee, confirmed: false, note: triedNote(), neverHeld: true };
    const next = await stepDown(search, knee, opts);
    if ("stop" in next) return { knee, confirmed: false, note: `${triedNote()}; ${next.stop}`, neverHeld: true };
    if (next.lo >= knee) return { knee, confirmed: false, note: triedNote(), neverHeld: true };
    knee = next.lo;
  }
}

/** The note of a knee that held: its costs, what did not hold before it, and whether it held only judged at speed. */
function heldNote(
  steps: readonly SearchStep[],
  knee: number,
  atSpeed: string | undefined,
  triedBefore: string | undefined,
): { knee: number; confirmed: boolean; note: string; neverHeld: boolean } {
  const costs = costsAt(steps, knee);
  if (!costsHold(costs)) {
    return {
      knee,
      confirmed: false,
      note:
        `; ${fmt(knee)}/s kept up on its repeats but its cost did not repeat ` +
        `(${microsList(costs)}, more than ${COST_REPEAT_SPREAD * 100}% apart)`,
      neverHeld: false,
    };
  }
  const agreed = costs.raw.length >= 2 ? ` at ${microsList(costs)}` : "";
  const held =
    triedBefore === undefined
      ? `; ${fmt(knee)}/s held on a repeat${agreed}`
      : `; ${triedBefore} did not hold on a repeat, ${fmt(knee)}/s did${agreed}`;
  return { knee, confirmed: true, note: atSpeed === undefined ? held : `${held} (${atSpeed})`, neverHeld: false };
}

/** The costs of a rate's keep-up runs, raw and, when every one of them has a speed reading, at the reference speed. */
export interface Costs { raw: number[]; atReference?: number[] }

/**
 * µs per inference of the settled, quiet keep-up runs at `rate` so far, raw and at the reference
 * speed when each has its speed index.
 */
export function costsAt(steps: readonly SearchStep[], rate: number): Costs {
  const runs = steps.filter((s) => s.rate === rate && sustained(s) && countsAsRun(s) && s.cpuMicrosPerInference !== undefined);
  const raw = runs.map((s) => s.cpuMicrosPerInference as number);
  if (runs.length === 0 || runs.some((s) => !(s.speedIndex !== undefined && s.speedIndex > 0))) return { raw };
  return { raw, atReference: runs.map((s) => atReferenceSpeed(s.cpuMicrosPerInference as number, s.speedIndex as number)) };
}

/**
 * The runs' costs repeat: raw, or at the reference speed. Where the speed index follows the
 * machine, runs minutes apart disagree raw by what the machine did and agree at the reference
 * speed; where its readings swing more than the machine does, scaling adds the index's noise and
 * the raw costs agree. Either agreement says no run was disturbed against the other.
 */
export function costsHold(costs: Costs): boolean {
  return costsAgree(costs.raw) || (costs.atReference !== undefined && costsAgree(costs.atReference));
}

export function microsList(costs: Costs): string {
  const list = (xs: readonly number[]): string => xs.map((c) => c.toFixed(1)).join(" / ");
  const ref = costs.atReference;
  if (ref === undefined || costsAgree(costs.raw)) return `${list(costs.raw)} µs per inference`;
  if (costsAgree(ref)) return `${list(ref)} µs per inference at the reference speed (${list(costs.raw)} raw)`;
  return `${list(costs.raw)} µs per inference raw, ${list(ref)} at the reference speed`;
}
