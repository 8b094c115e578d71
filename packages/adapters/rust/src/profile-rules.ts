/**
 * How `bench --profile` sorts the native row's CPU. There is no sampling profiler for a native
 * process here: librdkafka's own threads (fetch, decompress, the producer's send) count whole
 * by thread name (rdk:*), and the app's own thread by the stages it times itself (its
 * BENCH_STAGES line: one "stage:<name>" frame per stage, weighted by its CPU microseconds). Its
 * CPU outside every stage (stage:untimed) is claimed by no rule: other.
 */
import { RDKAFKA_THREADS, type ProfileRules } from "@bench/core";

export const rustProfileRules: ProfileRules = {
  frames: [
    { category: "fetch", frame: /^stage:fetch$/ },
    { category: "decode", frame: /^stage:decode$/ },
    { category: "features", frame: /^stage:features$/ },
    { category: "model", frame: /^stage:model$/ },
    { category: "encode", frame: /^stage:encode$/ },
    { category: "produce", frame: /^stage:produce$/ },
  ],
  threads: RDKAFKA_THREADS,
};
