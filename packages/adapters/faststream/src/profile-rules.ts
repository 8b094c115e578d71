/**
 * How `bench --profile` sorts faststream's py-spy frames. FastStream 0.7 on aiokafka: aiokafka's
 * fetcher and record parsing (lz4 included) are the client's fetch; FastStream's parser turns
 * each record into a message object (decode); publishing goes through FastStream's publisher
 * (with its per-message correlation id) into aiokafka's producer.
 */
import { PYTHON_COMMON_FRAMES, type ProfileRules } from "@bench/core";

export const faststreamProfileRules: ProfileRules = {
  frames: [
    // py-spy names functions by qualified name: "score.<locals>.<listcomp> (main.py:64)".
    { category: "features", frame: /\b(normalise|<listcomp>) \((risk_model|main)\.py/ },
    { category: "encode", frame: /\(orjson|^dumps \(/ },
    // aiokafka compresses the producer's batches (lz4 through cramjam) before sending them.
    {
      category: "produce",
      frame: /\(aiokafka\/producer\/|^lz4_encode |RecordBatchBuilder|\(faststream\/kafka\/publisher\/|\(faststream\/_internal\/endpoint\/publisher\//,
    },
    { category: "decode", frame: /\(faststream\/kafka\/parser\.py|\(faststream\/_internal\/parser\.py|\b(decode_message|parse_message|json_loads|loads) \(/ },
    { category: "fetch", frame: /^lz4_decode |\(aiokafka\/(consumer|record|protocol)\/|\(aiokafka\/conn\.py/ },
    ...PYTHON_COMMON_FRAMES,
    // Middlewares and dependency injection around each call of the handler.
    { category: "runtime", frame: /\(fast_depends\/|\(faststream\/middlewares\//, innermost: true },
  ],
};
