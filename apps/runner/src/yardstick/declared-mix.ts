/**
 * The mix each row declares for runs that were not profiled: its profile at its knee in the
 * 2026-12-01 sweeps (docs/results/2026-12-01-peers and 2026-12-01-index-v2, an AMD EPYC Zen 5),
 * each process's CPU per thread sorted by `mix.ts`, rounded to 5 %. A row's mix moves with its
 * rate (node-passthrough: V8 81 % at 100k/s, 72 % at 160k/s), so the page calls these declared,
 * not measured. Rows never profiled (risingwave, turbine) declare none and are read by V8's index.
 */
import type { YardstickRuntime } from "../results/types.ts";

export const DECLARED_MIX: Readonly<Record<string, Partial<Record<YardstickRuntime, number>>>> = {
  node: { v8: 0.95, native: 0.05 },
  "node-passthrough": { v8: 0.8, native: 0.2 },
  "confluent-kafka": { cpython: 0.9, native: 0.1 },
  quix: { cpython: 0.95, native: 0.05 },
  faststream: { cpython: 1 },
  bytewax: { cpython: 0.95, native: 0.05 },
  // Its UDF's Python runs on the engine's threads and counts as native here (`mix.ts`).
  pathway: { native: 1 },
  flink: { jvm: 0.9, cpython: 0.1 },
  spark: { jvm: 0.75, cpython: 0.25 },
  "kafka-streams": { jvm: 1 },
};
