/**
 * How `bench --profile` sorts pathway's py-spy frames and threads. Pathway's engine is a stripped
 * Rust library: py-spy names its frames "0x… (pathway/engine.abi3.so)" and cannot tell its
 * reader, dataflow and writer apart, so engine frames under no Python frame are runtime. The
 * app's UDF names its steps (decoded, forward, encoded) so that each lands in its category.
 * Threads py-spy does not see go by name: librdkafka's (rdk:*) fetch and send, Pathway's
 * connector thread reads the topic, its output thread and the producer's poll thread produce.
 * The engine's worker threads (pathway:work-N) are left to py-spy's samples: they run the UDF.
 */
import { PYTHON_COMMON_FRAMES, RDKAFKA_THREADS, type ProfileRules } from "@bench/core";

export const pathwayProfileRules: ProfileRules = {
  frames: [
    { category: "decode", frame: /^(decoded|record_problem) \((main|bench_kit)\.py:/ },
    // forward's list comprehension is the feature rows; the tensor built from them is features too (core's rule).
    {
      category: "features",
      frame: new RegExp(
        "^(normalise|normalise\\.<locals>\\.<listcomp>|metrics_of|metrics_of\\.<locals>\\.<genexpr>) \\((risk_model|bench_kit)\\.py:|" +
          "^forward\\.<locals>\\.<listcomp> \\(main\\.py:",
      ),
    },
    { category: "encode", frame: /^(encoded|encoded\.<locals>\.<listcomp>|output_record) \((main|bench_kit)\.py:/ },
    ...PYTHON_COMMON_FRAMES,
    // The app's consumed counter, written once a second.
    { category: "runtime", frame: /^Progress\.(write_forever|saw) \(main\.py:/ },
    // The engine and Pathway's Python glue around the UDF call: the framework's own work.
    { category: "runtime", frame: /\(pathway\/engine\.abi3\.so\)$|\(pathway\/internals\//, innermost: true },
  ],
  threads: [
    ...RDKAFKA_THREADS,
    { category: "fetch", thread: /^pathway:connect/ },
    { category: "produce", thread: /^(pathway:output|producer pollin)/ },
    { category: "runtime", thread: /^(pathway:(logger|signal)|jemalloc_bg_thd)/ },
  ],
};
