/** The audit of a faults run's output topic: every output read once, counted by OutputTally. */
import { FIXTURE_COUNT, readTopic, type PoisonPill } from "@bench/core";
import type { ForeignRecords } from "../results/types.ts";
import { foreignInput, ownInputCount, type FeedFinal } from "../run/audit-foreign.ts";
import type { BenchContext } from "../run/context.ts";
import { stableOutput } from "../run/audit-transaction.ts";
import { OutputTally, type FaultTally } from "./tally.ts";

/** `produced` good records (ids e0…) against everything in the output topic; lost ranges cut to 20 for the results file. */
export async function auditOutput(bench: BenchContext, outputTopic: string, produced: number): Promise<FaultTally> {
  const tally = new OutputTally(produced);
  // Exactly-once: read to the last stable offset once an open transaction has ended, or name it (audit-transaction.ts).
  const stable = bench.guarantee === "exactly-once" ? await stableOutput(bench.bootstrap, outputTopic) : undefined;
  const open = stable?.open;
  const adminEnd = await bench.admin.endOffset(outputTopic);
  const outputEnd = stable ? (open && !open.ended ? Math.min(adminEnd, stable.readTo) : Math.max(adminEnd, stable.readTo)) : adminEnd;
  const range = { stopAt: outputEnd, untilOffset: outputEnd, idleMs: 10_000 };
  await readTopic(bench.bootstrap, outputTopic, (batch) => batch.forEach((m) => tally.add(m.value)), range);
  const counted = tally.result();
  if (open) {
    counted.openTransaction = open;
    if (!open.ended && counted.lost > 0) {
      counted.unreadBehindOpenTransaction = counted.lost;
      counted.lost = 0;
    }
  }
  counted.lostRanges = counted.lostRanges.slice(0, 20);
  return counted;
}

/**
 * The bench's own good records in a scenario's input, and the foreign records beside them
 * (run/audit-foreign.ts): `produced` is the seq bound of the good ones (fixtures and gendata's),
 * or, when gendata's final report cannot say, the input's end less the pills sent.
 */
export async function ownAndForeign(
  bench: BenchContext,
  inputTopic: string,
  inputEnd: number,
  final: FeedFinal | undefined,
  pills: readonly PoisonPill[] = [],
): Promise<{ produced: number; foreign?: ForeignRecords }> {
  const own = ownInputCount(final);
  const pillsSent = final?.poisonSent ?? pills.length;
  if (own === undefined) return { produced: inputEnd - pillsSent };
  const produced = FIXTURE_COUNT + (final as FeedFinal).sent;
  const foreign = await foreignInput(bench.bootstrap, inputTopic, { inputEnd, own, produced, pills: pills.map((p) => p.value) });
  return { produced, ...(foreign ? { foreign } : {}) };
}
