/**
 * How `bench --profile` sorts the plain confluent-kafka row's py-spy frames. The app calls
 * confluent-kafka's C extension (cimpl) directly, and py-spy --native names its C functions:
 * Consumer_consume / Consumer_commit and the Message objects they hand out (created, read,
 * freed) are the consumer side of the client (fetch; the commit is the consumer's offset
 * bookkeeping, counted there too), Producer_produce / Producer_flush and the delivery reports
 * they serve are produce. librdkafka's own threads (fetch, decompress, the producer's send),
 * which py-spy cannot see, count by thread name (rdk:*). orjson's native frames are often
 * unnamed addresses, so decode and encode go by the app's functions around them.
 */
import { PYTHON_COMMON_FRAMES, RDKAFKA_THREADS, type ProfileRules } from "@bench/core";

export const confluentKafkaProfileRules: ProfileRules = {
  frames: [
    // A blocking client call owns everything under it (librdkafka's queue serving, the delivery callbacks).
    { category: "produce", frame: /^(Producer_\w+|dr_msg_cb) \(confluent_kafka\//, anywhere: true },
    { category: "fetch", frame: /^Consumer_\w+ \(confluent_kafka\//, anywhere: true },
    { category: "features", frame: /^normalise \(risk_model\.py|^score\.<locals>\.<listcomp> \(main\.py/ },
    { category: "decode", frame: /^decode \(main\.py|^record_problem \(bench_kit\.py/ },
    { category: "encode", frame: /^encode \(main\.py|^output_record \(bench_kit\.py/ },
    // FailedDeliveries is the app's; Deliveries is in the recorded profile (__fixtures__), taken before the kit.
    { category: "produce", frame: /^publish \(main\.py|^(FailedDeliveries|Deliveries)\.\w+ \(main\.py/ },
    // The messages consume() returned: reading their value and freeing the previous batch.
    { category: "fetch", frame: /^Message_\w+ \(confluent_kafka\// },
    ...PYTHON_COMMON_FRAMES,
    // The loop's own interpreter work with nothing deeper: mostly rebinding `records` freeing the
    // previous batch's decoded dicts (CPython's deallocators have no symbols py-spy can name).
    { category: "runtime", frame: /^main \(main\.py:\d+\)$/, innermost: true },
  ],
  threads: RDKAFKA_THREADS,
};
