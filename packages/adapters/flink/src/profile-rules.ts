/**
 * How `bench --profile` sorts flink's frames: JFR's Java frames from the MiniCluster JVM and
 * py-spy's from the Python UDF worker (Beam's harness). Moving rows between the JVM and the
 * Python worker (Arrow batches over gRPC, Beam's coders) is framework overhead by the issue's
 * definition: serialisation between processes.
 */
import { PYTHON_COMMON_FRAMES, type ProfileRules } from "@bench/core";

export const flinkProfileRules: ProfileRules = {
  frames: [
    // Python worker: the pandas UDF body
    { category: "features", frame: /^(column_stack|clip|to_numpy|astype)\b|\(numpy\/|\(pandas\/core\/(series|generic)\.py/ },
    ...PYTHON_COMMON_FRAMES,
    { category: "runtime", frame: /\(pyflink\/fn_execution\/|\(apache_beam\/|\(grpc\/|\(pyarrow\/|\(libarrow/ },
    // JVM
    // The connector shades the Kafka client (org.apache.flink.kafka.shaded.org.apache.kafka...).
    {
      category: "fetch",
      frame: /(^|\.shaded\.)org\.apache\.kafka\.clients\.consumer\.|KafkaSourceReader|SplitFetcher|(^|\.shaded\.)net\.jpountz\.lz4\..*Decompress/,
    },
    {
      category: "decode",
      frame: new RegExp(
        "JsonRowDataDeserializationSchema|JsonToRowDataConverters|JsonParserToRowDataConverters|" +
          "^org\\.apache\\.flink\\.shaded\\.jackson2?\\..*(Parser|Deserializ|readTree)",
      ),
    },
    {
      category: "encode",
      frame: /JsonRowDataSerializationSchema|RowDataToJsonConverters|^org\.apache\.flink\.shaded\.jackson2?\..*(Generator|Serializ|writeValue)/,
    },
    { category: "produce", frame: /(^|\.shaded\.)org\.apache\.kafka\.clients\.producer\.|KafkaWriter|KafkaSink/ },
    // Each sample is rooted in its thread ("[kafka-producer-network-thread | ...]"): what no
    // deeper rule claims in the Kafka client's own threads is that client's work.
    { category: "produce", frame: /^\[kafka-producer-network-thread/ },
    { category: "fetch", frame: /^\[Source Data Fetcher/ },
    {
      category: "runtime",
      frame: new RegExp(
        "^org\\.apache\\.flink\\.(python|streaming\\.api\\.runners\\.python|table\\.runtime\\.arrow|fnexecution)|^org\\.apache\\.beam\\.|" +
          "^org\\.apache\\.arrow\\.|\\.grpc\\.",
      ),
    },
    { category: "runtime", frame: /^org\.apache\.flink\.(runtime|streaming\.runtime|table\.runtime)\./ },
    // JFR's own event writing while it records: the profiler's cost, counted as overhead.
    { category: "runtime", frame: /^jdk\.jfr\./ },
  ],
  // The JVM's own threads, which JFR's execution samples do not cover.
  threads: [{ category: "runtime", thread: /^(GC Thread|G1 |VM Thread|C[12] CompilerThre|VM Periodic|Sweeper)/ }],
};
