/**
 * How `bench --profile` sorts the node rows' V8 CPU profile. The JS thread decodes 4 fields by
 * scanning the JSON text, scores through onnxruntime-node and hands outputs to librdkafka;
 * librdkafka's own threads (fetch, decompress, send) are invisible to V8's profiler and counted
 * by thread name, and so are V8's and libuv's helper threads.
 */
import { RDKAFKA_THREADS, type ProfileRules } from "@bench/core";

export const nodeProfileRules: ProfileRules = {
  frames: [
    { category: "model", frame: /onnxruntime|^score \([^)]*core\/src\/model\.ts/ },
    { category: "features", frame: /^clip \(/ },
    { category: "decode", frame: /^(numberField|stringField) \(|^toString \(node:buffer/ },
    { category: "encode", frame: /^from \(node:buffer/ },
    { category: "produce", frame: /^produce \(.*kafka-javascript|^(produce|flush) \(.*producer\.js/ },
    { category: "fetch", frame: /^(consume|_consumeNum|_consumeLoop) \(|kafka-javascript.*consumer/ },
    { category: "runtime", frame: /^\(garbage collector\)|^processTicksAndRejections|^runMicrotasks/ },
  ],
  threads: [...RDKAFKA_THREADS, { category: "runtime", thread: /^(V8 Dedicated|V8 Default|V8 DefaultWorke|libuv-worker|node)/ }],
};
