import { METRIC_FIELDS, METRIC_MAXIMA, type InputRecord } from "./schema.ts";

export type FeatureVector = [number, number, number, number];

const clip01 = (x: number): number => (x < 0 ? 0 : x > 1 ? 1 : x);

/** The model's input: each metric divided by its documented maximum, clipped to [0, 1]. */
export function normalise(record: Pick<InputRecord, (typeof METRIC_FIELDS)[number]>): FeatureVector {
  return [
    clip01(record.latency_ms / METRIC_MAXIMA.latency_ms),
    clip01(record.queue_depth / METRIC_MAXIMA.queue_depth),
    clip01(record.cpu_usage / METRIC_MAXIMA.cpu_usage),
    clip01(record.error_count / METRIC_MAXIMA.error_count),
  ];
}

/** Row-major [n, 4] float32 batch, the layout the ONNX export takes. */
export function featureMatrix(records: ReadonlyArray<Pick<InputRecord, (typeof METRIC_FIELDS)[number]>>): Float32Array {
  const out = new Float32Array(records.length * 4);
  records.forEach((r, i) => out.set(normalise(r), i * 4));
  return out;
}
