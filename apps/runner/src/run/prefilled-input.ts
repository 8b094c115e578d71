/**
 * The drain runs' input: the gate's fixtures, then `backlog` generated records produced by
 * gendata alone as fast as it goes, timed (its rate and CPU are kept with every drain run, and
 * bound the paced runs). Filled once, on first use, and read by every product's drain run with
 * its own consumer group: the records are the same for every row, and filling costs ~15 s.
 */
import { FIXTURE_COUNT, produceMessages } from "@bench/core";
import { join } from "node:path";
import type { PrefillRecord } from "../results/types.ts";
import type { BenchContext } from "./context.ts";
import { GendataProcess } from "./gendata-process.ts";

/**
 * Records pre-filled: about 15 s of gendata alone (~200k/s), enough for the fastest row on the
 * committed pages (node-passthrough, ~175k/s) to drain through its gate, settle and a 10 s window.
 */
export const DRAIN_BACKLOG = 3_000_000;
/** Asked of gendata while it pre-fills: far above what it can do, so it goes as fast as it can. */
const PREFILL_RATE = 100_000_000;

export interface Filled {
  record: PrefillRecord;
  /** gendata after it filled the topic (exited): a drain run's ticker reads its final report. */
  gendata: GendataProcess;
}

export class PrefilledInput {
  readonly topic = `bench.prefilled.${new Date().toISOString().replace(/[:.]/g, "-")}.in`;
  private filled: Promise<Filled> | undefined;

  constructor(
    private readonly bench: BenchContext,
    private readonly seed: number,
    readonly backlog = DRAIN_BACKLOG,
  ) {}

  /** The topic's records and how fast gendata wrote them; filled on the first call. */
  get(): Promise<Filled> {
    this.filled ??= this.fill();
    return this.filled;
  }

  private async fill(): Promise<Filled> {
    const { bench } = this;
    await bench.admin.createTopics([{ name: this.topic }]);
    // As written: a spelling case's exact text, with its key or none (as verify.ts produces them).
    await produceMessages(bench.bootstrap, this.topic, bench.fixtures.map((f) => ({ key: f.key, value: f.value })));
    const gendata = new GendataProcess({ bootstrap: bench.bootstrap, topic: this.topic, rate: PREFILL_RATE, seed: this.seed, startSeq: FIXTURE_COUNT, count: this.backlog, logFile: join(bench.resultsDir, "prefill-gendata.log") });
    const final = await gendata.finished();
    if (!final || final.delivered < this.backlog || final.t <= 0) {
      throw new Error(`gendata could not pre-fill ${this.backlog} records (${final ? `${final.delivered} acknowledged` : "no final report"}): ${gendata.logTail()}`);
    }
    const record = { records: final.delivered, seconds: final.t, ratePerSec: final.delivered / final.t, gendataCpuPercent: (final.cpuSeconds / final.t) * 100 };
    return { record, gendata };
  }

  async dispose(): Promise<void> {
    if (this.filled) await this.bench.admin.deleteTopics([this.topic]).catch(() => undefined);
  }
}
