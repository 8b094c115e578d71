/**
 * A slower minute is not a slower product. On machines of this kind the CPU's speed moves by
 * 15–20 % over minutes with no foreign load or steal to show for it, and a run near the knee
 * saturates in such a minute. The speed index sees it; these rules keep the knee
 * search from reading it as the product's limit. Pure: verdict.ts' "slower machine" rule applies them.
 */
import { median } from "../metrics/stats.ts";
import { REFERENCE_SPEED } from "../run/speed-index.ts";
import { MACHINE_SLOWER_SHARE } from "./constants.ts";
import type { StepOutcome } from "./step.ts";

/** What a step needs for these rules: its outcome and whether an earlier rule set it aside. */
type SpeedStep = Pick<
  StepOutcome,
  "rate" | "regime" | "speedIndex" | "noisy" | "unsettled" | "failed" | "invalid" | "interrupted" | "gendataShort"
> & { slower?: string };

/** A run that says something about the product: not failed, interrupted, invalid, noisy, or on a markedly slower machine. */
export const countsAsRun = (s: Pick<SpeedStep, "failed" | "interrupted" | "invalid" | "noisy" | "slower">): boolean =>
  s.failed === undefined && s.interrupted === undefined && s.invalid === undefined && s.noisy === undefined && s.slower === undefined;

const counts = (s: SpeedStep): boolean => s.speedIndex !== undefined && s.speedIndex > 0 && countsAsRun(s);

/**
 * The search's own usual speed for a run at `rate` (usualAcross adds the bench's): the median index of the earlier settled keep-up
 * runs at this rate or above (the speed at which the product showed it can take the rate), else
 * of every earlier run that counts. Undefined when no earlier run had a reading.
 */
export function usualSpeed(earlier: readonly SpeedStep[], rate: number): number | undefined {
  const counted = earlier.filter(counts);
  const keptUp = counted.filter((s) => s.rate >= rate && s.regime === "keep-up" && s.unsettled !== true && !s.gendataShort);
  const pool = keptUp.length > 0 ? keptUp : counted;
  return pool.length > 0 ? median(pool.map((s) => s.speedIndex as number)) : undefined;
}

/**
 * The usual speed a run is read against: the search's own (usualSpeed) or the bench's lately
 * across rows, whichever is higher. A search whose runs all fell in one slow phase has a usual
 * speed as slow as they are, and only the bench's says that the machine is usually faster.
 */
export function usualAcross(search: number | undefined, bench: number | undefined): number | undefined {
  if (search === undefined) return bench;
  return bench === undefined ? search : Math.max(search, bench);
}

export interface Slower {
  /** The usual speed the run is read against. */
  usual: number;
  /** The run's own index. */
  speed: number;
  /** For the page: "speed index 511,457 against 589,278 when it kept up (−13%)". */
  text: string;
}

/** The run's machine was markedly slower than usual (undefined: it was not, or there is nothing to compare). */
export function slowerMachine(step: Pick<StepOutcome, "speedIndex">, usual: number | undefined): Slower | undefined {
  const speed = step.speedIndex;
  if (usual === undefined || speed === undefined || !(speed > 0)) return undefined;
  if (speed >= usual * (1 - MACHINE_SLOWER_SHARE)) return undefined;
  const share = Math.round((1 - speed / usual) * 100);
  return {
    usual,
    speed,
    text: `speed index ${Math.round(speed).toLocaleString("en-US")} against ${Math.round(usual).toLocaleString("en-US")} usual here (−${share}%)`,
  };
}

/** A rate taken to the reference speed (rate × reference ÷ the index it was measured at): knees compare across machines the way µs do. */
export function rateAtReference(rate: number, speedIndex: number): number {
  return (rate * REFERENCE_SPEED) / speedIndex;
}
