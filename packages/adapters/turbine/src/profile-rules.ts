/**
 * How `bench --profile` sorts turbine's frames: py-spy with --native sees Turbine's Rust core
 * (rdkafka, Arrow's JSON reader and writer, the ONNX operator, tokio) through native frames,
 * and the Python handler (onnx_features.Score / torch_score) through Python ones.
 */
import { PYTHON_COMMON_FRAMES, RDKAFKA_THREADS, type ProfileRules } from "@bench/core";

export const turbineProfileRules: ProfileRules = {
  frames: [
    { category: "model", frame: /onnxruntime|libonnxruntime|\bOrt[A-Z]|turbine::ml::|OnnxModel|^score \(torch_score\.py/ },
    { category: "features", frame: /\(onnx_features\.py|\(torch_score\.py|arrow_arith|arrow_compute|\(pyarrow\/compute\.py/ },
    { category: "decode", frame: /arrow_json::reader|serde_json::de|simd_json|turbine::.*decode/ },
    { category: "encode", frame: /arrow_json::writer|serde_json::ser|turbine::.*encode/ },
    { category: "produce", frame: /rd_kafka_produce|rdkafka::producer|FutureProducer|BaseProducer|turbine::.*(sink|produce)/ },
    { category: "fetch", frame: /rd_kafka_|rdkafka::consumer|BaseConsumer|StreamConsumer|LZ4_|lz4|turbine::.*(source|fetch|poll)/ },
    ...PYTHON_COMMON_FRAMES,
    { category: "runtime", frame: /tokio::|crossbeam|parking_lot|pyo3::/ },
  ],
  threads: RDKAFKA_THREADS,
};
