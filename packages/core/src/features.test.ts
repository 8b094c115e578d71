import { featureMatrix, normalise } from "./features.ts";
import { METRIC_MAXIMA } from "./schema.ts";

describe("normalise", () => {
  it("divides each metric by its documented maximum", () => {
    expect(normalise({ latency_ms: 2500, queue_depth: 250, cpu_usage: 50, error_count: 5 })).toEqual([0.5, 0.25, 0.5, 0.1]);
  });

  it("clips to [0, 1]", () => {
    expect(normalise({ latency_ms: 9000, queue_depth: 1200, cpu_usage: 100, error_count: 90 })).toEqual([1, 1, 1, 1]);
    expect(normalise({ latency_ms: -3, queue_depth: 0, cpu_usage: 0, error_count: 0 })).toEqual([0, 0, 0, 0]);
  });

  it("keeps the maxima the model card documents", () => {
    expect(METRIC_MAXIMA).toEqual({ latency_ms: 5000, queue_depth: 1000, cpu_usage: 100, error_count: 50 });
  });

  it("lays a batch out row-major as float32", () => {
    const m = featureMatrix([
      { latency_ms: 5000, queue_depth: 0, cpu_usage: 25, error_count: 50 },
      { latency_ms: 0, queue_depth: 500, cpu_usage: 100, error_count: 0 },
    ]);
    expect(Array.from(m)).toEqual([1, 0, 0.25, 1, 0, 0.5, 1, 0]);
  });
});
