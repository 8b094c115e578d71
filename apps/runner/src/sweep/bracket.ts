/**
 * The knee's bracket: the rates that kept up, the rates that saturated (fell behind, or that
 * gendata could not offer beside the product), and the bound no paced rate goes above (the drain's
 * ceiling and its margin, gendata's cap). It picks the next rate and says when the bracket is
 * within the resolution. Pure: the search (knee.ts) runs the rates it picks and records verdicts.
 */
import { CLIMB_FACTOR, DOWN_SHARE, DRAIN_BOUND_MARGIN, START_SHARE } from "./constants.ts";
import { fmt, roundRate } from "./rates.ts";
import type { DrainFigures, StepOutcome } from "./step.ts";

/** What a saturated rate's run consumed and was offered: where a step down goes. */
type Fall = Pick<StepOutcome, "rate" | "consumedPerSec" | "offeredPerSec"> & { unreachable: boolean };

/** The top of the bracket: a rate, and whether the product (a saturated run, its drain) set it or gendata did. */
export interface Top { rate: number; byProduct: boolean }

export type Next = { rate: number } | { done: string };

export class Bracket {
  readonly keptUp = new Set<number>();
  /** A rate that saturated even once is never a knee: the noise guarded against is lucky keep-ups. */
  private readonly falls = new Map<number, Fall>();

  constructor(private readonly drain: DrainFigures, private readonly resolution: number) {
    if (!(drain.ceiling > 0) || !(drain.gendataCap > 0) || !(resolution > 0)) {
      throw new RangeError(`a search needs a ceiling, a gendata cap and a resolution above 0 (got ${JSON.stringify({ ...drain, resolution })})`);
    }
  }

  /** A run's final verdict at its rate. */
  keep(step: Pick<StepOutcome, "rate" | "consumedPerSec" | "offeredPerSec">, kind: "kept-up" | "fell-behind" | "unreachable"): void {
    if (kind === "kept-up") this.keptUp.add(step.rate);
    else this.falls.set(step.rate, { ...step, unreachable: kind === "unreachable" });
  }

  /** The drain measured the product's own ceiling: settled and quiet, and the product did not read as fast as gendata wrote. */
  get drainBounds(): boolean {
    return this.drain.ceilingByGendata !== true && this.drain.ceilingUnsettled !== true && this.drain.ceiling < this.drain.gendataCap;
  }

  /**
   * No paced rate above the drain's ceiling and its margin (while it bounds: a keep-up at or above
   * the drain's own rate shows the drain read the ceiling low), nor above gendata's cap.
   */
  bound(): Top {
    const cap = { rate: roundRate(this.drain.gendataCap), byProduct: false };
    const readLow = [...this.keptUp].some((r) => r >= this.drain.ceiling);
    if (!this.drainBounds || readLow) return cap;
    return { rate: roundRate(Math.min(this.drain.ceiling * (1 + DRAIN_BOUND_MARGIN), this.drain.gendataCap)), byProduct: true };
  }

  /** The lowest saturated rate (undefined: none). */
  private lowestFall(): Fall | undefined {
    let low: Fall | undefined;
    for (const f of this.falls.values()) if (low === undefined || f.rate < low.rate) low = f;
    return low;
  }

  /** The knee so far: the highest keep-up under every saturated rate. */
  knee(): number | undefined {
    const fall = this.lowestFall()?.rate ?? Infinity;
    const under = [...this.keptUp].filter((r) => r < fall);
    return under.length > 0 ? Math.max(...under) : undefined;
  }

  /** Above the knee: the lowest saturated rate, else the bound. */
  top(): Top {
    const fall = this.lowestFall();
    const bound = this.bound();
    if (fall === undefined || fall.rate >= bound.rate) return bound;
    return { rate: fall.rate, byProduct: !fall.unreachable };
  }

  /** The first rate: just under the drain's ceiling (at a ceiling that is gendata's: at it), never above the bound. */
  private start(): number {
    const wanted = roundRate(this.drain.ceiling * (this.drain.ceilingByGendata === true ? 1 : START_SHARE));
    return Math.min(wanted, this.bound().rate);
  }

  /** The next rate to run, or why the bracket is done. */
  next(): Next {
    const knee = this.knee();
    const fall = this.lowestFall();
    if (knee === undefined) return fall === undefined ? { rate: this.start() } : this.down(fall);
    const top = this.top();
    // On the grid of rates: a step down by the resolution rounds to it, and its keep-up closes the bracket.
    const within = `the bracket ${fmt(knee)}–${fmt(top.rate)}/s is within ${this.resolution * 100} %`;
    if (top.rate <= roundRate(knee * (1 + this.resolution))) return { done: within };
    // Bisect toward what saturated; while nothing has, climb at most by CLIMB_FACTOR toward the bound.
    const toward = fall !== undefined && fall.rate === top.rate ? (knee + top.rate) / 2 : Math.min((knee + top.rate) / 2, knee * CLIMB_FACTOR);
    const rate = roundRate(toward);
    return rate > knee && rate < top.rate ? { rate } : { done: `no rate of three significant figures lies between ${fmt(knee)} and ${fmt(top.rate)}/s` };
  }

  /**
   * Under a saturated rate with nothing kept up below it: down by the resolution, so that the first
   * keep-up closes the bracket, or to what it consumed when that is lower (an overloaded product
   * consumes less than it sustains, so the knee lies at or above it); under an unreachable rate,
   * toward what gendata offered.
   */
  private down(fall: Fall): Next {
    const toward = fall.unreachable ? fall.offeredPerSec * DOWN_SHARE : Math.min(fall.rate / (1 + this.resolution), fall.consumedPerSec);
    const rate = roundRate(Math.min(fall.rate * DOWN_SHARE, toward));
    return rate < fall.rate && toward >= 1 ? { rate } : { done: `no rate under ${fmt(fall.rate)}/s is left to try` };
  }
}
