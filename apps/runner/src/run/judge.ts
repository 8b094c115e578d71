/**
 * What a finished run may be used for. A run that did not do the work is `invalid` and never a
 * result; a run measured on a machine that was not quiet (or had slowed down) is `noisy` and
 * never a knee. The bounds are here and only here (the README and the page quote them).
 */
import type { DeliveryCheck, RunConditions, Tick, VerificationResult } from "../results/types.ts";

/** Foreign load averaged over the window above this (100 = one core) makes a run noisy. */
export const FOREIGN_CPU_LIMIT = 10;
/** Steal averaged over the window above this (100 = one core) makes a run noisy. */
export const STEAL_LIMIT = 5;
/**
 * A speed index this far (as a share) from the bench's reference reading makes a run noisy. On the
 * quiet 2-core VM of 2026-12-01 the best-of-five readings spread from about 95k to 162k over a
 * session (the VM's own speed moves that much), so a tighter bound flagged quiet runs by the
 * third; 35 % still catches the 1.7x-4x slowdowns the bound exists for.
 */
export const SPEED_DRIFT_LIMIT = 0.35;
/**
 * The speed index after a run this far (as a share) from the one before it makes the run noisy:
 * the machine changed speed under the window. Seen in the sweep of 2026-12-01: quix at 5k/s read
 * 243k before and 187k after, and its CPU went from 47% to 84% of a core three seconds into the
 * window for the same records (foreign load 1%, steal 0.1%); its 10k/s repeat read 186k -> 239k
 * and fell behind. Of that sweep's 35 runs, 30 moved by under 20%.
 */
export const SPEED_CHANGE_LIMIT = 0.2;

const mean = (xs: readonly number[]): number => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);
const pct = (x: number): string => `${x.toFixed(1)}%`;

export function judgeConditions(
  window: readonly Tick[],
  speed: { before: number; after: number; reference: number },
): RunConditions {
  const foreign = window.map((t) => t.foreignCpuPercent ?? 0);
  const conditions: RunConditions = {
    speedIndexBefore: speed.before,
    speedIndexAfter: speed.after,
    speedIndexReference: speed.reference,
    foreignCpuAvg: mean(foreign),
    foreignCpuMax: Math.max(0, ...foreign),
    stealAvg: mean(window.map((t) => t.stealPercent ?? 0)),
    noisy: false,
    noisyBecause: [],
  };
  const because = conditions.noisyBecause;
  if (conditions.foreignCpuAvg > FOREIGN_CPU_LIMIT) {
    because.push(`foreign load ${pct(conditions.foreignCpuAvg)} of a core (limit ${FOREIGN_CPU_LIMIT}%)`);
  }
  if (conditions.stealAvg > STEAL_LIMIT) because.push(`steal ${pct(conditions.stealAvg)} of a core (limit ${STEAL_LIMIT}%)`);
  for (const [when, value] of [["before", speed.before], ["after", speed.after]] as const) {
    const drift = speed.reference > 0 ? value / speed.reference - 1 : 0;
    if (Math.abs(drift) > SPEED_DRIFT_LIMIT) {
      because.push(`speed index ${when} the run ${Math.round(value)} is ${(drift * 100).toFixed(0)}% from the bench's ${Math.round(speed.reference)} (limit ±${SPEED_DRIFT_LIMIT * 100}%)`);
    }
  }
  const change = speed.before > 0 ? speed.after / speed.before - 1 : 0;
  if (Math.abs(change) > SPEED_CHANGE_LIMIT) {
    because.push(`speed index moved ${change > 0 ? "+" : ""}${(change * 100).toFixed(0)}% during the run (${Math.round(speed.before)} → ${Math.round(speed.after)}, limit ±${SPEED_CHANGE_LIMIT * 100}%)`);
  }
  conditions.noisy = because.length > 0;
  return conditions;
}

export interface WorkEvidence {
  verification: VerificationResult;
  delivery?: DeliveryCheck;
  /** Records still waiting when the drain timed out (0 = drained). */
  undrained: number;
  drainTimeoutSec: number;
}

/** Why a run did not do the work; empty when it did. */
export function invalidReasons(evidence: WorkEvidence): string[] {
  const reasons: string[] = [];
  if (!evidence.verification.passed) reasons.push(`verification failed: ${evidence.verification.problem ?? "no detail"}`);
  if (evidence.undrained > 0) reasons.push(`backlog of ${evidence.undrained} records not drained within ${evidence.drainTimeoutSec} s`);
  const d = evidence.delivery;
  if (d) {
    if (d.lost > 0) reasons.push(`lost ${d.lost} of ${d.produced} records`);
    if ((d.misScored ?? 0) > 0) reasons.push(`mis-scored ${d.misScored} of ${d.scoresChecked} checked (largest error ${d.maxScoreError.toExponential(1)})`);
  }
  return reasons;
}
