/** The audit of a faults run's output topic: every output read once, counted by OutputTally. */
import { readTopic } from "@bench/core";
import type { BenchContext } from "../run/context.ts";
import { OutputTally, type FaultTally } from "./tally.ts";

/** `produced` good records (ids e0…) against everything in the output topic; lost ranges cut to 20 for the results file. */
export async function auditOutput(bench: BenchContext, outputTopic: string, produced: number): Promise<FaultTally> {
  const tally = new OutputTally(produced);
  const outputEnd = await bench.admin.endOffset(outputTopic);
  await readTopic(bench.bootstrap, outputTopic, (batch) => batch.forEach((m) => tally.add(m.value)), { stopAt: outputEnd, idleMs: 10_000 });
  const counted = tally.result();
  counted.lostRanges = counted.lostRanges.slice(0, 20);
  return counted;
}
