/**
 * After a run has drained: read the whole output topic once and account for every record.
 * Lost and duplicated come from the event ids (dense sequence numbers, so a byte per record
 * is enough); a sample of outputs is re-scored against the reference model; end-to-end
 * latency is each window record's output broker timestamp minus its produce time.
 */
import * as hdr from "hdr-histogram-js";
import { makeTemplate, normalise, POOL_SIZE, readTopic, seqOfEventId, type ReferenceModel } from "@bench/core";
import type { DeliveryCheck } from "../results/types.ts";

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
}): Promise<DeliveryCheck> {
  const counts = new Uint8Array(opts.produced);
  let unknown = 0;
  const stride = Math.max(1, Math.floor(opts.outputEnd / SCORE_SAMPLE));
  const sampleSeqs: number[] = [];
  const sampleRisks: number[] = [];
  const latency = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000, numberOfSignificantValueDigits: 3 });
  let latencyCount = 0;

  await readTopic(
    opts.bootstrap,
    opts.outputTopic,
    (batch) => {
      for (const m of batch) {
        const out = JSON.parse(m.value.toString("utf8")) as { event_id?: string; ts_ms?: number; risk?: number };
        const seq = seqOfEventId(String(out.event_id));
        if (seq === undefined || seq >= opts.produced) {
          unknown++;
          continue;
        }
        if (counts[seq] !== 255) counts[seq] = (counts[seq] as number) + 1;
        if (!opts.passthrough && m.offset % stride === 0) {
          sampleSeqs.push(seq);
          // A missing, null or non-numeric risk (e.g. RisingWave's NULL for a chunk whose UDF
          // call failed) is a wrong score, never 0.
          sampleRisks.push(typeof out.risk === "number" ? out.risk : Number.NaN);
        }
        const ts = Number(out.ts_ms);
        if (ts >= opts.windowMs[0] && ts <= opts.windowMs[1] && m.timestamp >= ts) {
          latency.recordValue(m.timestamp - ts);
          latencyCount++;
        }
      }
    },
    { stopAt: opts.outputEnd, idleMs: 10_000 },
  );

  let distinct = 0;
  let duplicated = 0;
  for (const c of counts) {
    if (c > 0) distinct++;
    if (c > 1) duplicated += c - 1;
  }
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
    lost: opts.produced - distinct,
    duplicated: duplicated + unknown,
    scoresChecked: sampleSeqs.length,
    misScored,
    maxScoreError,
  };
  if (latencyCount > 0) {
    check.latencyMs = {
      p50: latency.getValueAtPercentile(50),
      p99: latency.getValueAtPercentile(99),
      max: latency.maxValue,
      count: latencyCount,
    };
  }
  latency.destroy();
  return check;
}
