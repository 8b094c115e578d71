/**
 * What one step of a knee search is and says: the run's outcome (StepOutcome), the step as the
 * search keeps it (SearchStep), the verdict a search reads from it, and a search's result. Both
 * searches (knee.ts' sweep, fast-knee.ts) and the machine-speed rules read these.
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
  /** The run's speed index (the mean of its readings before and after): how fast the machine was. */
  speedIndex?: number;
}

/**
 * refineSteps caps the bisection, which otherwise goes on until the bracket is within
 * `resolution` (its high end at most that share above its low end).
 */
export interface SweepOptions { startRate: number; factor: number; maxRate: number; refineSteps: number; resolution: number; confirm: boolean; }

/** climb/refine/confirm: the sweep; paced: the fast search's step below a drain run's ceiling (drain is that run). */
export type StepPurpose = "climb" | "refine" | "confirm" | "paced";

/** A step as the search keeps it: what it was for, and why a rule set it aside. */
export type SearchStep = StepOutcome & {
  purpose: StepPurpose;
  /** The machine was markedly slower than usual during this saturated run (machine-speed.ts): it was repeated or judged at the usual speed. */
  slower?: string;
  /** This saturated run was judged at the usual speed and kept up there. */
  keptUpAtSpeed?: boolean;
  /** How this slower run was run again: at once, or after waiting for the machine to come back (speed-wait.ts). */
  rerun?: string;
};

export interface SweepResult {
  steps: SearchStep[];
  knee?: number;            // highest confirmed keep-up rate
  ceiling?: number;         // consumed/s of saturated runs (the max over them), the product's capacity
  confirmed: boolean;
  stoppedBecause: string;   // human sentence for the page
  /** The knee's bracket: the knee, and the lowest rate above it that saturated (absent: none did, the knee is a lower bound). */
  bracket?: { keptUp: number; saturated?: number };
  /** The knee at the reference speed: knee × reference ÷ the index of its keep-up runs. */
  kneeAtReference?: number;
}

/** unreachable: gendata could not offer the rate, so the step bounds the search without saying anything of the product. */
export type Verdict =
  | { kind: "keep-up"; /** kept up only judged at the usual speed (machine-speed.ts): why */ atSpeed?: string }
  | { kind: "saturated" }
  | { kind: "unreachable"; reason: string }
  | { kind: "stop"; reason: string };
