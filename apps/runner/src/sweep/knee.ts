/**
 * The knee search: the highest offered rate a product sustains on one partition, bracketed to a
 * resolution, in few measured runs. One algorithm for the main command (20 %, no confirm: its
 * rounds measure each row under its knee) and `--sweep` (10 %, confirmed). Its rules, each with
 * the principle it serves:
 *
 *  1. Ceiling first. A drain (run-fast.ts) measures what the product consumes working off a
 *     backlog alone; no paced rate goes above it plus DRAIN_BOUND_MARGIN, nor above what gendata
 *     can offer beside the product. Runs go where the knee can be. (bracket.ts)
 *  2. A drain that read low bounds nothing: once a paced run keeps up at or above the drain's
 *     rate, only gendata's cap bounds the search. (bracket.ts)
 *  3. Start just under the ceiling (START_SHARE): paced, the product shares the cores with gendata
 *     and the broker. (bracket.ts)
 *  4. Down by the resolution: under a rate that fell behind, with nothing kept up below it, the
 *     rate ÷ (1 + resolution), so the first keep-up closes the bracket; or what it consumed, when
 *     lower (an overloaded product consumes less than it sustains). (bracket.ts)
 *  5. Up by bisection toward the lowest saturated rate; while nothing above has saturated, a climb
 *     of at most CLIMB_FACTOR toward the bound: a step far past the knee leaves a backlog that can
 *     outlast the drain timeout.
 *  6. Done when the lowest saturated rate (or the bound) is within the resolution of the highest
 *     keep-up under it, on the search's grid of rates (so rule 4's step, rounded, closes it). A
 *     rate that saturated once is never the knee.
 *  7. A rate gendata cannot offer beside the product bounds the bracket as a saturated one does,
 *     but of gendata's: the knee is then "at least". (verdict.ts)
 *  8. Only a settled keep-up keeps up; a draining or unsettled run is run again once, and then
 *     counts as fell behind. (verdict.ts)
 *  9. A noisy run is run again, at most MAX_NOISY_REPEATS times, then the search stops; a run that
 *     fell behind on a markedly slower machine is run again once, after waiting for the machine to
 *     come back (speed-wait.ts). A slower minute is not a slower product. (verdict.ts)
 * 10. A failed or interrupted run stops the search; an invalid one stops it and withdraws the knee:
 *     a product that did not do the work gets no figure. (verdict.ts)
 * 11. With confirm on (the sweep), the knee is run again and holds when it keeps up at the same
 *     cost (confirm.ts); one that does not hold counts as saturated and the bracket goes on under it.
 * 12. Bounded: at most `maxSteps` runs, repeats and confirms included.
 */
import { median } from "../metrics/stats.ts";
import { rateAtReference, countsAsRun, usualAcross, usualSpeed } from "./machine-speed.ts";
import { Bracket } from "./bracket.ts";
import { confirmKnee } from "./confirm.ts";
import { fmt } from "./rates.ts";
import type { BenchSpeed } from "./speed-wait.ts";
import type { DrainFigures, SearchOptions, SearchStep, StepOutcome, StepPurpose, SweepResult } from "./step.ts";
import { sustained, verdict, type Verdict } from "./verdict.ts";

export { fmt, roundRate } from "./rates.ts";
export type { DrainFigures, SearchOptions, SearchStep, StepOutcome, StepPurpose, SweepResult } from "./step.ts";

type Final = Exclude<Verdict, { kind: "again" }>;

/** The runs of one search, each measurement run again as its verdict says. */
class Runs {
  readonly steps: SearchStep[] = [];
  constructor(
    private readonly runAt: (rate: number, purpose: StepPurpose) => Promise<StepOutcome>,
    private readonly maxSteps: number,
    private readonly speed?: BenchSpeed,
  ) {}

  /** One measurement at `rate`: runs until a verdict other than "again", or the cap. */
  async measure(rate: number, purpose: StepPurpose): Promise<Final> {
    const tries: SearchStep[] = [];
    for (;;) {
      if (this.steps.length >= this.maxSteps) return { kind: "stop", why: `the search hit its cap of ${this.maxSteps} runs` };
      const step: SearchStep = { ...(await this.runAt(rate, purpose)), purpose };
      this.steps.push(step);
      const usual = usualAcross(usualSpeed(this.steps.slice(0, -1), rate), this.speed?.usual());
      const v = verdict(step, { tries, usual });
      if (v.kind !== "again") return v;
      if (v.slower !== undefined) {
        step.slower = v.slower.text;
        if (this.speed !== undefined) step.rerun = await this.speed.wait(v.slower.usual);
      }
      tries.push(step);
    }
  }
}

interface Found { stop: string; withdraw: boolean; confirmed: boolean }

/** The search loop: the bracket's next rate run until it is done, then (confirm on) the knee's confirm, which may reopen it. */
async function search(runs: Runs, bracket: Bracket, opts: SearchOptions): Promise<Found> {
  for (;;) {
    const next = bracket.next();
    if ("rate" in next) {
      const v = await runs.measure(next.rate, "paced");
      if (v.kind === "stop") return { stop: v.why, withdraw: v.withdraw === true, confirmed: false };
      bracket.keep(runs.steps[runs.steps.length - 1] as SearchStep, v.kind);
      continue;
    }
    const knee = bracket.knee();
    if (knee === undefined || !opts.confirm) return { stop: next.done, withdraw: false, confirmed: false };
    const held = await confirmKnee(knee, (rate) => runs.measure(rate, "confirm"), runs.steps);
    if (held.kind === "held") return { stop: `${next.done}; ${held.why}`, withdraw: false, confirmed: true };
    if (held.kind === "unsure") return { stop: `${next.done}; ${held.why}`, withdraw: false, confirmed: false };
    if (held.kind === "stop") {
      return { stop: `${next.done}; ${fmt(knee)}/s was not confirmed: ${held.why}`, withdraw: held.withdraw === true, confirmed: false };
    }
    // Did not hold: the rate counts as saturated, the bracket goes on under it.
    bracket.keep(runs.steps[runs.steps.length - 1] as SearchStep, held.verdict.kind);
  }
}

/**
 * The knee from a drain's figures, with paced runs (`runAt`). The result has the shape the page
 * renders for every search: steps, knee, bracket, ceiling, confirmed, why it stopped.
 */
export async function findKnee(
  runAt: (rate: number, purpose: StepPurpose) => Promise<StepOutcome>,
  drain: DrainFigures,
  opts: SearchOptions,
  speed?: BenchSpeed,
): Promise<SweepResult> {
  if (!(opts.maxSteps >= 1)) throw new RangeError(`a search needs at least one run (got maxSteps ${opts.maxSteps})`);
  const bracket = new Bracket(drain, opts.resolution);
  const runs = new Runs(runAt, opts.maxSteps, speed);
  const found = await search(runs, bracket, opts);
  const knee = found.withdraw ? undefined : bracket.knee();
  const top = bracket.top();
  const bound =
    knee !== undefined && !top.byProduct
      ? `; gendata could not offer more than ${fmt(top.rate)}/s beside the product, so the knee is at least ${fmt(knee)}/s`
      : "";
  const withdrawn = found.withdraw ? "; no knee is reported for a product with an invalid run" : "";
  const unconfirmed = knee !== undefined && opts.confirm && !found.confirmed && !/not confirmed|did not repeat/.test(found.stop) ? "; not confirmed" : "";
  return {
    steps: runs.steps,
    ...(knee !== undefined ? { knee } : {}),
    ceiling: drain.ceiling,
    confirmed: knee !== undefined && found.confirmed,
    stoppedBecause: `drain ceiling ${fmt(drain.ceiling)}/s; ${found.stop}${bound}${unconfirmed}${withdrawn}.`,
    ...kneeFigures(runs.steps, knee, top.byProduct ? top.rate : undefined),
  };
}

/** The knee's bracket (its top: the lowest rate above it that saturated, or the drain's bound) and the knee at the reference speed. */
export function kneeFigures(steps: readonly SearchStep[], knee: number | undefined, top: number | undefined): Pick<SweepResult, "bracket" | "kneeAtReference"> {
  if (knee === undefined) return {};
  const speeds = steps.filter((s) => s.rate === knee && sustained(s) && countsAsRun(s) && s.speedIndex !== undefined).map((s) => s.speedIndex as number);
  return {
    bracket: { keptUp: knee, ...(top !== undefined && top > knee ? { saturated: top } : {}) },
    ...(speeds.length > 0 ? { kneeAtReference: rateAtReference(knee, median(speeds)) } : {}),
  };
}
