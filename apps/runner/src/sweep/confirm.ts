/**
 * The one confirm: the knee run again. One keep-up on a 2-core machine can be luck, so the knee
 * holds when a repeat keeps up and costs what it cost before (µs CPU per inference within
 * COST_REPEAT_SPREAD, raw or at the reference speed); a repeat that keeps up at another cost gets
 * one more run, so one disturbed run of the two neither confirms a knee nor rejects it.
 */
import { atReferenceSpeed } from "../run/speed-index.ts";
import { COST_REPEAT_SPREAD } from "./constants.ts";
import { countsAsRun } from "./machine-speed.ts";
import { fmt } from "./rates.ts";
import type { SearchStep } from "./step.ts";
import { sustained, type Verdict } from "./verdict.ts";

/** The costs of a rate's keep-up runs, raw and, when every one of them has a speed reading, at the reference speed. */
export interface Costs { raw: number[]; atReference?: number[] }

/** The pair of costs closest together agrees within COST_REPEAT_SPREAD (fewer than two: nothing to disagree). */
export function costsAgree(costs: readonly number[]): boolean {
  if (costs.length < 2) return true;
  const sorted = [...costs].sort((a, b) => a - b);
  return sorted.slice(1).some((c, i) => c <= (sorted[i] as number) * (1 + COST_REPEAT_SPREAD));
}

/** µs per inference of the settled, quiet keep-up runs at `rate` so far, raw and at the reference speed when each has its speed index. */
export function costsAt(steps: readonly SearchStep[], rate: number): Costs {
  const runs = steps.filter((s) => s.rate === rate && sustained(s) && countsAsRun(s) && s.cpuMicrosPerInference !== undefined);
  const raw = runs.map((s) => s.cpuMicrosPerInference as number);
  if (runs.length === 0 || runs.some((s) => !(s.speedIndex !== undefined && s.speedIndex > 0))) return { raw };
  return { raw, atReference: runs.map((s) => atReferenceSpeed(s.cpuMicrosPerInference as number, s.speedIndex as number)) };
}

/**
 * The runs' costs repeat, raw or at the reference speed: where the speed index follows the
 * machine, runs minutes apart disagree raw and agree scaled; where its readings swing more than the
 * machine does, scaling adds the index's noise and the raw costs agree. Either says no run was
 * disturbed against the other.
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

/** held: the knee stands confirmed; not held: the rate saturated (the search goes on under it); unsure: it kept up at costs that never agreed. */
export type Confirmed =
  | { kind: "held"; why: string }
  | { kind: "not held"; verdict: Extract<Verdict, { kind: "fell-behind" | "unreachable" }> }
  | { kind: "unsure"; why: string }
  | { kind: "stop"; why: string; withdraw?: boolean };

/** The knee at `rate` run again (`measure`: one measurement, its repeats included), and once more when its cost did not repeat. */
export async function confirmKnee(
  rate: number,
  measure: (rate: number) => Promise<Exclude<Verdict, { kind: "again" }>>,
  steps: readonly SearchStep[],
): Promise<Confirmed> {
  for (let run = 0; run < 2; run++) {
    const v = await measure(rate);
    if (v.kind === "stop") return v;
    if (v.kind !== "kept-up") return { kind: "not held", verdict: v };
    const costs = costsAt(steps, rate);
    if (costsHold(costs)) return { kind: "held", why: `${fmt(rate)}/s held on a repeat at ${microsList(costs)}` };
  }
  const costs = costsAt(steps, rate);
  const apart = `more than ${COST_REPEAT_SPREAD * 100} % apart`;
  return { kind: "unsure", why: `${fmt(rate)}/s kept up on its repeats but its cost did not repeat (${microsList(costs)}, ${apart})` };
}
