/** The audit of a faults run's output topic: every output read once, counted by OutputTally. */
import { FIXTURE_COUNT, readTopic, type PoisonPill } from "@bench/core";
import type { ForeignRecords, Phase, Tick } from "../results/types.ts";
import type { GendataProcess } from "../run/gendata-process.ts";
import { drainTicks } from "./drain-ticks.ts";
import { combinedFinal, foreignInput, ownInputCount, type FeedFinal } from "../run/audit-foreign.ts";
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

/** What a scenario's tail writes: the backlog left, the tally, and whether the row did the work. */
export interface ScenarioOutcome {
  undrained?: number;
  tally?: FaultTally;
  status: "ok" | "failed" | "invalid" | "not-run";
  reason?: string;
}

/**
 * A scenario's tail after its window, the same for the broker restarts, the server kill and the
 * overload: gendata stopped (a gendata that gave up fails the scenario with its reason, never the
 * product), the backlog drained, and the whole output tallied against the bench's own records (the
 * fixtures, what `earlier` feeds of the same input wrote, and this feed's); a backlog still there
 * after the drain timeout makes the run invalid.
 */
export async function drainAndTally(
  session: { bench: BenchContext; plan: { inputTopic: string; outputTopic: string } },
  feed: Pick<GendataProcess, "stop" | "gaveUp">,
  ticks: { tick: (phase: Phase) => Promise<Tick>; elapsed: () => number },
  drainTimeoutSec: number,
  result: ScenarioOutcome,
  earlier: readonly FeedFinal[] = [],
): Promise<void> {
  const final = await feed.stop();
  const gaveUp = feed.gaveUp();
  if (gaveUp !== undefined) throw new Error(gaveUp);
  const last = await drainTicks(ticks.tick, ticks.elapsed, drainTimeoutSec);
  result.undrained = Math.max(0, last.inputEnd - last.consumed);
  // No pills here: the bench's records are the fixtures and gendata's; anything else in the input is foreign.
  const feeds = combinedFinal(final ? [...earlier, final] : earlier, final ? 0 : 1);
  const { produced, foreign } = await ownAndForeign(session.bench, session.plan.inputTopic, last.inputEnd, feeds);
  result.tally = await auditOutput(session.bench, session.plan.outputTopic, produced);
  if (foreign) result.tally.foreign = foreign;
  result.status = "ok";
  if (result.undrained > 0) {
    result.status = "invalid";
    result.reason = `${result.undrained} records not consumed ${drainTimeoutSec}s after gendata stopped`;
  }
}
