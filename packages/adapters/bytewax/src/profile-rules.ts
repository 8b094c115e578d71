/**
 * How `bench --profile` sorts bytewax's py-spy frames. Bytewax 0.21 runs its Timely Dataflow
 * worker in Rust (`_bytewax` extension, on the interpreter's main thread) and calls the Python
 * steps from it: KafkaSource's partition polls confluent-kafka (fetch), the app's batch step
 * decodes, builds features, runs the model and encodes, KafkaSink produces and flushes. The Rust
 * frames with no Python step beneath them are the runtime: scheduling, progress tracking, parking
 * between polls and the recovery snapshots' SQLite writes. librdkafka's own threads are invisible
 * to py-spy and counted by thread name.
 */
import { PYTHON_COMMON_FRAMES, RDKAFKA_THREADS, type ProfileRules } from "@bench/core";

export const bytewaxProfileRules: ProfileRules = {
  frames: [
    { category: "features", frame: /^Scorer\.features \(main\.py|^normalise \(risk_model\.py|^metrics_of \(bench_kit\.py/ },
    // json's loads and dumps share json/__init__.py: each is named.
    {
      category: "decode",
      frame: /^Scorer\.decode \(main\.py|^record_problem \(bench_kit\.py|^(loads|detect_encoding) \(json\/__init__\.py|\(json\/decoder\.py/,
    },
    { category: "encode", frame: /^Scorer\.encode \(main\.py|^output_record \(bench_kit\.py|^dumps \(json\/__init__\.py|\(json\/encoder\.py/ },
    // KafkaSink's write_batch produces every output and then flushes (waits for the acks).
    { category: "produce", frame: /^_KafkaSinkPartition\.(write_batch|close) \(/ },
    // KafkaSource's stats callback parses librdkafka's statistics JSON (json.loads, which the
    // decode rule would claim) for a lag gauge: the connector's bookkeeping, wherever it sits.
    { category: "runtime", frame: /^_KafkaSourcePartition\._process_stats \(/, anywhere: true },
    // The bench's counter file, written from the poll loop once a second.
    { category: "runtime", frame: /^ConsumedCounter\.\w+ \(main\.py/ },
    { category: "fetch", frame: /^_KafkaSourcePartition\.(next_batch|close) \(|^StoppablePartition\.next_batch \(main\.py/ },
    ...PYTHON_COMMON_FRAMES,
    { category: "runtime", frame: /\(_bytewax\.cpython-[^)]*\.so\)$/, innermost: true },
  ],
  threads: RDKAFKA_THREADS,
};
