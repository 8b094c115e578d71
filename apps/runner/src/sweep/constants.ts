/**
 * Every tuning constant of the knee search, each with why it holds. The search (knee.ts) and its
 * parts (verdict.ts, bracket.ts, confirm.ts, machine-speed.ts, speed-wait.ts, run-fast.ts) read
 * them here and nowhere else.
 */

/**
 * The main command's resolution: the search stops once the lowest saturated rate (or the drain's
 * bound) is within this share above the highest keep-up. Its rounds measure each row at a fixed
 * fraction of the knee, under it, so the knee only has to be bracketed, and a finer step is within
 * what a host's slow phases move a rate.
 */
export const SEARCH_RESOLUTION = 0.2;

/**
 * The sweep's resolution (`--sweep-resolution`'s default): finer than this is below what a 2-core
 * machine's minute-to-minute speed lets a run tell apart.
 */
export const SWEEP_RESOLUTION = 0.1;

/**
 * The first paced step, as a share of the drain's ceiling. Paced, the product shares the cores
 * with gendata and the broker, so its knee sits under what it drains alone; just under the usual
 * knee/drain ratio takes the fewest steps.
 */
export const START_SHARE = 0.9;

/**
 * A step that fell behind sends the search to at most this share of its rate: strictly lower, so
 * the search never runs a saturated rate again. Under a saturated rate the resolution's step is
 * lower still; under an unreachable one, this is the step.
 */
export const DOWN_SHARE = 0.95;

/**
 * While nothing above the highest keep-up has saturated, a step up is at most this factor: with a
 * bound that is gendata's cap (the drain bounded nothing), a step far past the knee leaves a
 * backlog that can outlast the drain timeout and make the run invalid.
 */
export const CLIMB_FACTOR = 2;

/**
 * How far above the drain's rate a paced rate may still be tried: the drain's figure comes from a
 * window of 10-15 s, which reads a longer window's rate within about ±5 %.
 */
export const DRAIN_BOUND_MARGIN = 0.05;

/**
 * Of what gendata wrote as fast as it could beside the saturated product while it filled the
 * drain's backlog, the share a paced step asks of it: a paced gendata at its limit falls behind.
 */
export const PACED_GENDATA_SHARE = 0.9;

/** gendata delivering less than this share of the asked rate says nothing about the product: the rate is unreachable. */
export const GENDATA_SHORT = 0.95;

/** The main command's cap on paced runs (repeats included): every run costs a minute of the budget. */
export const MAX_SEARCH_STEPS = 10;

/** The sweep's cap on paced runs: its finer resolution and its confirms take more. */
export const MAX_SWEEP_STEPS = 16;

/** A run on a noisy machine is run again at most this many times; still noisy, the search stops with no figure from it. */
export const MAX_NOISY_REPEATS = 2;

/**
 * Two keep-up runs at one rate agree when their µs CPU per inference differ by at most this share
 * of the lower: a product's own repeat spread on a quiet machine of this kind lies within it, and
 * a cost outside it is evidence that something disturbed one of the runs.
 */
export const COST_REPEAT_SPREAD = 0.1;

/**
 * A run's machine is markedly slower when its speed index is this share under the usual speed.
 * Two readings' mean varies by about ±5 % on a quiet machine of this kind; a slow minute reads
 * more than that under the usual speed.
 */
export const MACHINE_SLOWER_SHARE = 0.08;

/** The longest wait for the machine to come back before a slower run is run again: about two paced steps. */
export const SPEED_WAIT_MAX_SEC = 60;

/** Pause between speed readings while waiting; a reading itself takes about half a second of one core. */
export const SPEED_WAIT_PAUSE_SEC = 4;
