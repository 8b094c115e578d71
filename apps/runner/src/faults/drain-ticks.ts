/** A faults scenario's drain: gendata stopped, ticks until every input record is consumed and the output stands still, or the timeout. */
import type { Phase, Tick } from "../results/types.ts";

export async function drainTicks(tick: (phase: Phase) => Promise<Tick>, elapsed: () => number, timeoutSec: number): Promise<Tick> {
  const started = elapsed();
  let last = await tick("drain");
  for (;;) {
    const next = await tick("drain");
    const done = !next.noReading && next.consumed >= next.inputEnd && next.outputEnd === last.outputEnd;
    last = next;
    if (done || elapsed() - started > timeoutSec) return last;
  }
}
