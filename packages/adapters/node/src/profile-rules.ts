/**
 * How `bench --profile` sorts the node rows' V8 CPU profile. The JS thread decodes each record
 * (TextDecoder, JSON.parse: src/app/record.ts), scores through onnxruntime-node and hands
 * outputs (JSON.stringify) to librdkafka;
 * librdkafka's own threads (fetch, decompress, send) are invisible to V8's profiler and counted
 * by thread name, and so are V8's and libuv's helper threads.
 */
import { RDKAFKA_THREADS, type ProfileRules } from "@bench/core";

export const nodeProfileRules: ProfileRules = {
  frames: [
    { category: "model", frame: /onnxruntime|^score \([^)]*core\/src\/model\.ts/ },
    { category: "features", frame: /^clip \(/ },
    // The text-scan decode's frames (numberField, ...) stay: the published profiles of that decode still sort.
    { category: "decode", frame: /^(decodeRecord|finite|decode|parse)( \(|$)|^(numberField|stringField|valueStart) \(|^toString \(node:buffer/ },
    { category: "encode", frame: /^(encodeOutput|stringify)( \(|$)|^from \(node:buffer/ },
    // The addon's native methods show as frames named after their class ("Producer", "KafkaConsumer").
    { category: "produce", frame: /^Producer\.(produce|flush) \(/ },
    { category: "fetch", frame: /^KafkaConsumer\.(consume|_consumeNum) \(/ },
    // Offset commits: the delivery protocol's bookkeeping.
    { category: "runtime", frame: /^KafkaConsumer\.commit|^\(garbage collector\)|^processImmediate \(|^processTicksAndRejections/ },
  ],
  threads: [
    ...RDKAFKA_THREADS,
    // V8's helpers: concurrent GC and compilation.
    { category: "runtime", thread: /^V8 / },
    // libuv's pool runs whatever the addons queue on it; V8's profiler does not see it.
    { category: "other", thread: /^libuv-worker/ },
  ],
};
