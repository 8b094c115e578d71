/**
 * How `bench --profile` sorts faststream's py-spy frames. FastStream 0.7 on aiokafka: aiokafka's
 * fetcher and record parsing (lz4 included) are the client's fetch; FastStream's parser turns
 * each record into a message object (decode); publishing goes through FastStream's publisher
 * (with its per-message correlation id) into aiokafka's producer.
 */
import { PYTHON_COMMON_FRAMES, type ProfileRules } from "@bench/core";

export const faststreamProfileRules: ProfileRules = {
  frames: [
    { category: "features", frame: /^(normalise|<listcomp>) \((risk_model|main)\.py/ },
    { category: "encode", frame: /\(orjson|^dumps \(/ },
    { category: "produce", frame: /\(aiokafka\/producer\/|\(faststream\/kafka\/publisher\/|^publish \(faststream\/|\(faststream\/_internal\/publisher\// },
    { category: "decode", frame: /\(faststream\/kafka\/parser\.py|\(faststream\/_internal\/parser\.py|^(decode_message|parse_message|json_loads|loads) \(|\(faststream\/message\// },
    { category: "fetch", frame: /\(aiokafka\/(consumer|record|conn|protocol)\/|\(aiokafka\/conn\.py|\(cramjam|lz4/ },
    ...PYTHON_COMMON_FRAMES,
  ],
};
