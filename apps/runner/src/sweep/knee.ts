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

export type StepPurpose = "climb" | "refine" | "confirm";

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
 * (2026-12-01: quix at 10k/s 26.0 / 26.7 / 26.4 µs, node at 100k/s 7.57–9.39 µs); a cost
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

function fmt(n: number): string {
  return String(n >= 100 ? Math.round(n) : Number(n.toPrecision(3)));
}

/** unreachable: gendata could not offer the rate, so the step bounds the search without saying anything of the product. */
type Verdict = { kind: "keep-up" | "saturated" } | { kind: "unreachable"; reason: string } | { kind: "stop"; reason: string };

export async function findKnee(
  runAt: (rate: number, purpose: StepPurpose) => Promise<StepOutcome>,
  opts: SweepOptions,
): Promise<SweepResult> {
  const { startRate, factor, maxRate, refineSteps } = opts;
  if (!(startRate > 0) || !(factor > 1) || !(maxRate >= startRate) || !(refineSteps >= 0)) {
    throw new RangeError(`a sweep needs startRate > 0, factor > 1, maxRate >= startRate, refineSteps >= 0 (got ${JSON.stringify(opts)})`);
  }
  const steps: SweepResult["steps"] = [];
  const keptUp = new Set<number>();
  // A rate that was saturated even once is never offered as a knee again: the noise we guard
  // against is lucky keep-ups, not unlucky saturations.
  const saturatedAt = new Set<number>();

  async function once(rate: number, purpose: StepPurpose): Promise<StepOutcome | { stop: string }> {
    let outcome: StepOutcome | undefined;
    for (let noisyRepeats = 0; ; noisyRepeats++) {
      if (steps.length >= MAX_STEPS) return { stop: `the sweep hit its cap of ${MAX_STEPS} runs` };
      outcome = await runAt(rate, purpose);
      steps.push({ ...outcome, purpose });
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

  const unreachable = (o: StepOutcome): string => `gendata could not reach ${fmt(o.rate)}/s (it delivered ${fmt(o.offeredPerSec)}/s), so the product was not pushed further`;

  /**
   * One verdict about the product at `rate`. Only a settled keep-up run counts as keeping up; a
   * draining or unsettled run is run once more, and if it is still not a settled keep-up the
   * rate is not sustainable (it never becomes a knee, and its catch-up CPU is never a row).
   */
  async function measure(rate: number, purpose: StepPurpose): Promise<Verdict> {
    const sustained = (o: StepOutcome): boolean => o.regime === "keep-up" && o.unsettled !== true;
    let outcome = await once(rate, purpose);
    if ("stop" in outcome) return { kind: "stop", reason: outcome.stop };
    if (outcome.gendataShort) return { kind: "unreachable", reason: unreachable(outcome) };
    if (!sustained(outcome) && outcome.regime !== "saturated") {
      outcome = await once(rate, purpose);
      if ("stop" in outcome) return { kind: "stop", reason: outcome.stop };
      if (outcome.gendataShort) return { kind: "unreachable", reason: unreachable(outcome) };
    }
    const kind = sustained(outcome) ? "keep-up" : "saturated";
    (kind === "keep-up" ? keptUp : saturatedAt).add(rate);
    return { kind };
  }

  let lo: number | undefined; // highest keep-up rate below hi
  let hi: number | undefined; // lowest saturated (or, see shortOfHi, unreachable) rate
  let shortOfHi: string | undefined; // hi is a rate gendata could not reach, not one the product failed at
  let stop: string | undefined;
  let bracketed = false; // the knee lies between lo and a saturated hi, not merely "at least lo"

  // Climb geometrically until saturated, unreachable or at maxRate.
  let rate = roundRate(startRate);
  for (;;) {
    const v = await measure(rate, "climb");
    if (v.kind === "stop") { stop = v.reason; break; }
    if (v.kind === "unreachable") {
      // Nothing kept up yet: there is no rate between to look at.
      if (lo === undefined) stop = v.reason;
      else { hi = rate; shortOfHi = v.reason; }
      break;
    }
    if (v.kind === "saturated") { hi = rate; break; }
    lo = rate;
    if (rate >= maxRate) { stop = `the product kept up at the sweep's maximum of ${fmt(maxRate)}/s`; break; }
    rate = Math.min(maxRate, Math.max(rate + 1, roundRate(rate * factor)));
  }

  // Saturated at the very first rate: come down geometrically until something keeps up.
  while (stop === undefined && lo === undefined && hi !== undefined) {
    const next = roundRate(hi / factor);
    if (next >= hi) { stop = `the product was saturated even at ${fmt(hi)}/s`; break; }
    const v = await measure(next, "climb");
    if (v.kind === "stop" || v.kind === "unreachable") stop = v.reason;
    else if (v.kind === "saturated") hi = next;
    else lo = next;
  }

  // Bisect between the last keep-up and the first saturated rate, or the first rate gendata
  // could not reach: below that one, gendata may still offer enough to learn something.
  if (stop === undefined && lo !== undefined && hi !== undefined) {
    for (let i = 0; i < refineSteps; i++) {
      const mid = roundRate((lo + hi) / 2);
      if (mid <= lo || mid >= hi) break; // below the rounding: no finer answer exists
      const v = await measure(mid, "refine");
      if (v.kind === "stop") { stop = v.reason; break; }
      if (v.kind === "keep-up") lo = mid;
      else if (v.kind === "unreachable") { hi = mid; shortOfHi = v.reason; }
      else { hi = mid; shortOfHi = undefined; }
    }
    if (stop === undefined && shortOfHi !== undefined) stop = shortOfHi;
    else if (stop === undefined) {
      bracketed = true;
      stop = `the product saturated at ${fmt(hi)}/s and kept up at ${fmt(lo)}/s`;
    }
  }
  stop ??= "the sweep found no rate the product keeps up with";

  let knee = lo;
  let confirmed = false;
  let note = "";
  let neverHeld = false;
  if (knee !== undefined && !opts.confirm) {
    note = "; not confirmed (confirm is off)";
  } else if (knee !== undefined && steps[steps.length - 1]?.interrupted !== undefined) {
    note = "; not confirmed (the bench was interrupted)";
  } else if (knee !== undefined && steps[steps.length - 1]?.failed !== undefined) {
    note = "; not confirmed (a failed product is not run again)";
  } else if (knee !== undefined && steps.some((s) => s.invalid !== undefined)) {
    // not confirmed: an invalid run withdraws the knee below
  } else if (knee !== undefined && stop?.startsWith("the machine stayed noisy")) {
    note = "; not confirmed (the machine was noisy)";
  } else if (knee !== undefined && steps.length >= MAX_STEPS) {
    note = "; not confirmed (no runs left)";
  } else if (knee !== undefined) {
    ({ knee, confirmed, note, neverHeld } = await confirmKnee(knee, { steps, keptUp, saturatedAt, measure, factor }));
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
  const bound = knee !== undefined && !bracketed && !neverHeld ? `; the knee is at least ${fmt(knee)}/s` : "";
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
function costsAt(steps: SweepResult["steps"], rate: number): number[] {
  return steps
    .filter((s) => s.rate === rate && s.regime === "keep-up" && s.unsettled !== true && s.noisy === undefined && s.cpuMicrosPerInference !== undefined)
    .map((s) => s.cpuMicrosPerInference as number);
}

const microsList = (costs: readonly number[]): string => costs.map((c) => c.toFixed(1)).join(" / ");

/**
 * One keep-up on a 2-core machine can be luck: the knee must hold on a repeat, and cost what it
 * cost before (within COST_REPEAT_SPREAD). A repeat that keeps up at another cost gets one more
 * run; a rate that does not hold steps down, at most MAX_STEP_DOWNS times.
 */
async function confirmKnee(start: number, ctx: ConfirmContext): Promise<{ knee: number; confirmed: boolean; note: string; neverHeld: boolean }> {
  const rejected: number[] = [];
  let knee = start;
  const triedNote = (): string => `; no knee held on a repeat (tried ${rejected.map((r) => `${fmt(r)}/s`).join(", ")})`;
  for (let stepDowns = 0; ; stepDowns++) {
    let v = await ctx.measure(knee, "confirm");
    if (v.kind === "keep-up" && !costsAgree(costsAt(ctx.steps, knee))) v = await ctx.measure(knee, "confirm");
    if (v.kind === "stop" || v.kind === "unreachable") return { knee, confirmed: false, note: `; ${fmt(knee)}/s was not confirmed: ${v.reason}`, neverHeld: false };
    if (v.kind === "keep-up") {
      const costs = costsAt(ctx.steps, knee);
      if (!costsAgree(costs)) {
        return { knee, confirmed: false, note: `; ${fmt(knee)}/s kept up on its repeats but its cost did not repeat (${microsList(costs)} µs per inference, more than ${COST_REPEAT_SPREAD * 100}% apart)`, neverHeld: false };
      }
      const agreed = costs.length >= 2 ? ` at ${microsList(costs)} µs per inference` : "";
      const note = rejected.length === 0
        ? `; ${fmt(knee)}/s held on a repeat${agreed}`
        : `; ${rejected.map((r) => `${fmt(r)}/s`).join(" and ")} did not hold on a repeat, ${fmt(knee)}/s did${agreed}`;
      return { knee, confirmed: true, note, neverHeld: false };
    }
    rejected.push(knee);
    // Reported as the most conservative rate that kept up at least once, flagged unconfirmed.
    if (stepDowns >= MAX_STEP_DOWNS) return { knee, confirmed: false, note: triedNote(), neverHeld: true };
    const current = knee;
    const lower = [...ctx.keptUp].filter((r) => r < current && !ctx.saturatedAt.has(r));
    knee = lower.length > 0 ? Math.max(...lower) : roundRate(current / ctx.factor);
    if (knee >= current) return { knee, confirmed: false, note: triedNote(), neverHeld: true };
  }
}

