/**
 * The verification gate on a pre-filled input topic (a drain run): the fixtures were produced
 * first and a generated backlog after them, before the product started, so their outputs come
 * out among the backlog's. The gate reads the output topic from its start and holds every
 * output that is not a generated record's to the fixtures, as verify.ts does; it passes once
 * every fixture came out right. Timing starts only after it.
 */
import { readTopic, seqOfEventId, type GateRecord } from "@bench/core";
import type { VerificationResult } from "../results/types.ts";
import { readOutput } from "./output-read.ts";
import { GateCheck } from "./verify.ts";

/** A generated record's output (seq at or past the fixtures'), which the gate leaves to the audit. */
export function isGeneratedOutput(value: Buffer, firstGeneratedSeq: number): boolean {
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
  timeoutMs: number;
  aborted: () => string | undefined;
}): Promise<VerificationResult> {
  const check = new GateCheck(opts.fixtures, opts.passthrough);
  const fixtures = opts.fixtures.length;
  let outputsRead = 0;
  const deadline = Date.now() + opts.timeoutMs;
  while (check.seen.size < fixtures && check.problem === undefined && Date.now() < deadline) {
    const abort = opts.aborted();
    if (abort) return { passed: false, checked: check.seen.size, fixtures, maxError: check.maxError, problem: abort };
    await readTopic(
      opts.bootstrap,
      opts.outputTopic,
      (batch) => {
        for (const m of batch) {
          outputsRead++;
          if (!isGeneratedOutput(m.value, opts.firstGeneratedSeq)) check.add(m.offset, m.value);
        }
      },
      { fromOffset: outputsRead, stopAt: fixtures - check.seen.size, idleMs: 3_000, timeoutMs: Math.max(1000, deadline - Date.now()) },
    );
  }
  const problem = check.verdict(opts.tolerance, opts.timeoutMs);
  return { passed: problem === undefined, checked: check.seen.size, fixtures, maxError: check.maxError, ...(problem ? { problem } : {}) };
}
