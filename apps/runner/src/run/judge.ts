/**
 * What a finished run may be used for. A run that did not do the work is `invalid` and never a
 * result; a run that something measurably disturbed is `noisy` and never a knee. The bounds are
 * here and only here (the README and the page quote them).
 *
 * Noise is judged by evidence of noise: load on the machine that is neither the product nor the
 * harness, and time the hypervisor took (steal). The speed index is recorded before and after
 * every run, to state each row's cost at a reference speed, but a speed reading alone never
 * discards a run: on a quiet machine of this kind an index reading can swing far more than the
 * products' own costs do, and a rule on it would judge quiet runs noisy. A product's cost that does not repeat is judged where repeats exist (the knee's
 * confirm, `sweep/knee.ts`).
 */
import type { Guarantee } from "@bench/core";
import type { DeliveryCheck, ForeignRecords, RunConditions, Tick, VerificationResult } from "../results/types.ts";
import { describeOpenTransaction } from "./audit-transaction.ts";
import { SPEED_INDEX_VERSION } from "./speed-index.ts";

/** Foreign load averaged over the window above this (100 = one core) makes a run noisy. */
export const FOREIGN_CPU_LIMIT = 10;
/** Steal averaged over the window above this (100 = one core) makes a run noisy. */
export const STEAL_LIMIT = 5;

const mean = (xs: readonly number[]): number => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);
const pct = (x: number): string => `${x.toFixed(1)}%`;

export interface SpeedReadings {
  before: number;
  after: number;
  /** The bench's reading at its start. */
  reference: number;
  /** Which speed index took them (results older than version 2 have none: 1). */
  version?: number;
}

export function judgeConditions(window: readonly Tick[], speed: SpeedReadings): RunConditions {
  const foreign = window.map((t) => t.foreignCpuPercent ?? 0);
  const conditions: RunConditions = {
    speedIndexBefore: speed.before,
    speedIndexAfter: speed.after,
    speedIndexReference: speed.reference,
    speedIndexVersion: speed.version ?? SPEED_INDEX_VERSION,
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
  conditions.noisy = because.length > 0;
  return conditions;
}

export interface WorkEvidence {
  verification: VerificationResult;
  delivery?: DeliveryCheck;
  /** Records still waiting when the drain timed out (0 = drained). */
  undrained: number;
  drainTimeoutSec: number;
  /** Under exactly-once a duplicate read-committed is work done wrong, as a loss is under either. */
  guarantee?: Guarantee;
}

/** Why a run did not do the work; empty when it did. */
export function invalidReasons(evidence: WorkEvidence): string[] {
  const reasons: string[] = [];
  if (!evidence.verification.passed) reasons.push(`verification failed: ${evidence.verification.problem ?? "no detail"}`);
  if (evidence.undrained > 0) reasons.push(`backlog of ${evidence.undrained} records not drained within ${evidence.drainTimeoutSec} s`);
  const d = evidence.delivery;
  if (d) {
    // First, and on one line (the page's first table shows a reason's first line): an output the
    // audit could not read also leaves its record lost, so this says why.
    // e.g. "2 bad outputs at offsets 22, 40 (offset 22: not JSON, "{\"event_id\":…")".
    const bad = d.badOutputs ?? 0;
    const [first, ...rest] = d.badOutputSamples ?? [];
    if (bad > 0) {
      const offsets = first
        ? ` at offset${rest.length > 0 ? "s" : ""} ${[first, ...rest].map((b) => b.offset).join(", ")}${bad > rest.length + 1 ? ", …" : ""}`
        : "";
      reasons.push(`${bad} bad output${bad === 1 ? "" : "s"}${offsets}${first ? ` (offset ${first.offset}: ${first.why}, ${first.head})` : ""}`);
    }
    // Someone else wrote into the row's input: the run did not measure the bench's load alone.
    if (d.foreign) reasons.push(foreignReason(d.foreign));
    if (d.lost > 0) reasons.push(`lost ${d.lost} of ${d.produced} records`);
    // An open transaction is the cause of what could not be read, never a loss.
    if (d.openTransaction && !d.openTransaction.ended) reasons.push(describeOpenTransaction(d.openTransaction));
    if (evidence.guarantee === "exactly-once" && d.duplicated > 0) reasons.push(`${d.duplicated} duplicates read-committed under exactly-once`);
    if ((d.misScored ?? 0) > 0) reasons.push(`mis-scored ${d.misScored} of ${d.scoresChecked} checked (largest error ${d.maxScoreError.toExponential(1)})`);
  }
  return reasons;
}

/** e.g. "25 foreign records in the input (not the bench's; 9 malformed) at offsets 1200, 1201, …". */
export function foreignReason(f: ForeignRecords): string {
  const more = f.count > f.offsets.length ? ", …" : "";
  return `${f.count} foreign record${f.count === 1 ? "" : "s"} in the input (not the bench's; ${f.malformed} malformed) at offset${f.count === 1 ? "" : "s"} ` +
    `${f.offsets.join(", ")}${more}`;
}
