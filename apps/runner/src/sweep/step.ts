/**
 * What one step of the knee search is and says: the run's outcome (StepOutcome), the step as the
 * search keeps it (SearchStep), the search's options and its result. The search (knee.ts) and its
 * parts read these.
 */
import type { Regime } from "../results/types.ts";

export interface StepOutcome {
  rate: number;             // offered rate asked for
  offeredPerSec: number;    // what gendata actually delivered
  consumedPerSec: number;
  regime: Regime;
  /** gendata could not reach the asked rate (offered well under rate): the step says nothing about the product. */
  gendataShort: boolean;
  /** the run failed (crash/hang): the search stops. */
  failed?: string;
  /** the bench itself was interrupted ("interrupted by SIGTERM"): the search stops; says nothing about the product. */
  interrupted?: string;
  /** the run did not do the work (verification, lost or mis-scored records, undrained): the search stops and the knee is withdrawn. */
  invalid?: string;
  /** the machine was not quiet: the step is run again (bounded), never a knee. */
  noisy?: string;
  /** the backlog never settled before the window: never a knee. */
  unsettled?: boolean;
  /** µs CPU per inference over the window: a knee's confirm must agree with it. */
  cpuMicrosPerInference?: number;
  /** The run's speed index (the mean of its readings before and after): how fast the machine was. */
  speedIndex?: number;
}

/** paced: a step of the search; confirm: the knee run again. climb and refine name the steps of sweeps recorded before one search. */
export type StepPurpose = "paced" | "confirm";

/** A step as the search keeps it: what it was for, and why a rule set it aside. */
export type SearchStep = StepOutcome & {
  purpose: StepPurpose;
  /** The machine was markedly slower than usual during this run (machine-speed.ts): it was run again. */
  slower?: string;
  /** How this slower run was run again: at once, or after waiting for the machine to come back (speed-wait.ts). */
  rerun?: string;
};

/** How fine the search brackets the knee, whether it confirms it, and its cap on runs (constants.ts' presets). */
export interface SearchOptions {
  resolution: number;
  confirm: boolean;
  maxSteps: number;
}

/** The drain's figures the search starts from and is bounded by (run-fast.ts reads them off the drain run). */
export interface DrainFigures {
  /** The drain's consumed/s: the product's ceiling on one partition. */
  ceiling: number;
  /** The highest rate gendata can offer beside the product (from its timed fill). */
  gendataCap: number;
  /** The product read as fast as gendata could write: the ceiling is gendata's, it bounds nothing of the product. */
  ceilingByGendata?: boolean;
  /** The drain was not settled or not quiet: its rate only sets where the search begins, and bounds nothing. */
  ceilingUnsettled?: boolean;
}

export interface SweepResult {
  steps: SearchStep[];
  knee?: number;            // the highest keep-up rate under every saturated one
  ceiling?: number;         // the drain's consumed/s, the product's capacity alone
  confirmed: boolean;
  stoppedBecause: string;   // human sentence for the page
  /** The knee's bracket: the knee, and the lowest rate above it that saturated or the drain's bound (absent: neither, the knee is a lower bound). */
  bracket?: { keptUp: number; saturated?: number };
  /** The knee at the reference speed: knee × reference ÷ the index of its keep-up runs. */
  kneeAtReference?: number;
}
