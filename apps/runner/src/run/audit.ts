/**
 * After a run has drained: read the whole output topic once and account for every record
 * (audit-account.ts: lost, duplicated, and bad outputs counted with their offsets, never
 * thrown); a sample of outputs is re-scored against the reference model; end-to-end latency
 * is each window record's output broker timestamp minus its produce time.
 */
import * as hdr from "hdr-histogram-js";
import { makeTemplate, normalise, POOL_SIZE, readTopic, type ReferenceModel } from "@bench/core";
import type { DeliveryCheck } from "../results/types.ts";
import { OutputAccount } from "./audit-account.ts";

/** About this many outputs are re-scored per run, spread evenly. */
const SCORE_SAMPLE = 20_000;

export async function auditOutputs(opts: {
  bootstrap: string;
  outputTopic: string;
  /** Every produced record has seq < produced (fixtures first, then gendata's). */
  produced: number;
  outputEnd: number;
  seed: number;
  reference: ReferenceModel;
  passthrough: boolean;
  /** The model card's tolerance: a checked risk further than this from the reference is mis-scored. */
  tolerance: number;
  /** Produce-time range of the measured window, for latency. */
  windowMs: [number, number];
  /** Further windows (a paced session's later steps): each gets its own latency in `latencyByWindow`. */
  moreWindowsMs?: Array<[number, number]>;
  /** Seqs whose outputs are not re-scored: the row's declared misread spelling cases (core's misreadSeqs). */
  unscored?: ReadonlySet<number>;
  /** A drain run stopped mid-backlog: only records below this seq must have come out (default: produced). */
  heldTo?: number;
}): Promise<DeliveryCheck> {
  const heldTo = Math.min(opts.heldTo ?? opts.produced, opts.produced);
  const account = new OutputAccount({ produced: opts.produced, passthrough: opts.passthrough, stride: Math.max(1, Math.floor(opts.outputEnd / SCORE_SAMPLE)), ...(opts.unscored ? { unscored: opts.unscored } : {}) });
  const windows = [opts.windowMs, ...(opts.moreWindowsMs ?? [])].map((range) => ({ range, latency: new WindowLatency() }));

  await readTopic(
    opts.bootstrap,
    opts.outputTopic,
    (batch) => {
      for (const m of batch) {
        const ts = account.add(m)?.tsMs;
        if (ts === undefined || m.timestamp < ts) continue;
        for (const w of windows) if (ts >= w.range[0] && ts <= w.range[1]) w.latency.record(m.timestamp - ts);
      }
    },
    { stopAt: opts.outputEnd, idleMs: 10_000 },
  );

  const { distinct, duplicated, badOutputs, badOutputSamples, sampleSeqs, sampleRisks } = account.result(heldTo);
  let maxScoreError = 0;
  let misScored = 0;
  if (sampleSeqs.length > 0) {
    const features = Float32Array.from(sampleSeqs.flatMap((seq) => normalise(makeTemplate(opts.seed, seq % POOL_SIZE))));
    const expected = await opts.reference.score(features);
    sampleRisks.forEach((risk, i) => {
      const error = Math.abs(risk - (expected[i] as number));
      const counted = Number.isFinite(error) ? error : Number.POSITIVE_INFINITY;
      maxScoreError = Math.max(maxScoreError, counted);
      if (counted > opts.tolerance) misScored++;
    });
  }
  const check: DeliveryCheck = {
    produced: opts.produced,
    distinctOutputs: distinct,
    lost: heldTo - distinct,
    duplicated,
    scoresChecked: sampleSeqs.length,
    misScored,
    maxScoreError,
    badOutputs,
    badOutputSamples,
    ...(heldTo < opts.produced ? { heldTo } : {}),
  };
  const [first, ...more] = windows.map((w) => w.latency.done());
  if (first) check.latencyMs = first;
  if (opts.moreWindowsMs) check.latencyByWindow = more;
  return check;
}

/** End-to-end ms of one window's records. */
class WindowLatency {
  private readonly histogram = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000, numberOfSignificantValueDigits: 3 });
  private count = 0;

  record(ms: number): void {
    this.histogram.recordValue(ms);
    this.count++;
  }

  /** The figures (none when no record fell in the window); the histogram is freed. */
  done(): DeliveryCheck["latencyMs"] {
    const figures = this.count > 0 ? { p50: this.histogram.getValueAtPercentile(50), p99: this.histogram.getValueAtPercentile(99), max: this.histogram.maxValue, count: this.count } : undefined;
    this.histogram.destroy();
    return figures;
  }
}
