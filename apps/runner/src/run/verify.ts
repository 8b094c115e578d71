/**
 * The verification gate, before any timing (TechEmpower's verify step): the product scores
 * the committed fixtures, the 256 generated records and then every spelling case as its exact
 * raw text (fixtures/spellings.jsonl: pretty-printed, escaped, near the size limit, …); every
 * output must carry its record's exact event id and ts_ms and the reference model's risk within
 * the card's tolerance. A product that fails is not timed, and the failure names the fixture case.
 * It doubles as the readiness check: a product that has scored the fixtures is consuming.
 * The gate itself is core's runGate, which the adapters' integration tests run too.
 */
import { runGate, type GateOptions } from "@bench/core";
import type { VerificationResult } from "../results/types.ts";

/** The bench's gate produces no pills: the fixtures only. */
export async function verifyProduct(opts: Omit<GateOptions, "poison">): Promise<VerificationResult> {
  return (await runGate(opts)).result;
}
