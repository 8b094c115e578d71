/**
 * The verification gate on a pre-filled input topic (a drain run): the fixtures were produced
 * first and a generated backlog after them, before the product started, so their outputs come
 * out among the backlog's. The gate reads the output topic from its start and holds every
 * output that is not a generated record's to the fixtures, as verify.ts does; it passes once
 * every fixture came out right. Timing starts only after it.
 */
import { GateCheck, readIntoCheck, readOutput, seqOfEventId, type GateRecord, type SpellingFindings } from "@bench/core";
import type { VerificationResult } from "../results/types.ts";

/** A generated record's output (seq at or past the fixtures'), which the gate leaves to the audit. */
export function isGeneratedOutput(value: Uint8Array, firstGeneratedSeq: number): boolean {
  const read = readOutput(value);
  if (!read.ok) return false;
  const seq = seqOfEventId(read.eventId);
  return seq !== undefined && seq >= firstGeneratedSeq;
}

export async function verifyPrefilled(opts: {
  bootstrap: string;
  outputTopic: string;
  fixtures: readonly GateRecord[];
  /** The first generated record's sequence number (core's FIXTURE_COUNT). */
  firstGeneratedSeq: number;
  tolerance: number;
  passthrough: boolean;
  /** The row's declared spelling findings (Product.spellingFindings). */
  findings?: SpellingFindings;
  timeoutMs: number;
  aborted: () => string | undefined;
}): Promise<VerificationResult> {
  const check = new GateCheck(opts.fixtures, opts.passthrough, opts.findings);
  const aborted = await readIntoCheck(opts, check, (value) => !isGeneratedOutput(value, opts.firstGeneratedSeq));
  return check.result(opts.tolerance, opts.timeoutMs, aborted ?? check.verdict(opts.tolerance, opts.timeoutMs));
}
