/**
 * How `bench --profile` sorts quix's py-spy frames. Quix Streams 3 on confluent-kafka: the
 * Python side polls and produces through confluent-kafka's C extension; librdkafka's own threads
 * (fetch, decompress, the producer's send) are invisible to py-spy and counted by thread name.
 */
import { PYTHON_COMMON_FRAMES, RDKAFKA_THREADS, type ProfileRules } from "@bench/core";

export const quixProfileRules: ProfileRules = {
  frames: [
    { category: "features", frame: /\bnormalise \(risk_model\.py/ },
    { category: "decode", frame: /deserializer|\b_?deserialize \(|json.*loads|\(orjson.*loads/i },
    { category: "encode", frame: /(?<!de)serializer|\b_?serialize \(|json.*dumps|\(orjson/i },
    { category: "produce", frame: /\b_?produce(_row)? \(|\(quixstreams\/(kafka\/producer|internal_producer|rowproducer)\.py/ },
    { category: "fetch", frame: /\b_?(poll|consume|poll_row|poll_unbuffered) \(|\(quixstreams\/(kafka\/consumer|internal_consumer\/consumer|rowconsumer)\.py/ },
    ...PYTHON_COMMON_FRAMES,
    { category: "runtime", frame: /\(quixstreams\/(checkpointing|processing|state|core|dataframe)\// },
  ],
  threads: RDKAFKA_THREADS,
};
