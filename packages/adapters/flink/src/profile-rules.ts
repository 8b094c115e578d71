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
    { category: "fetch", frame: /^org\.apache\.kafka\.clients\.consumer\.|^org\.apache\.kafka\.common\.(record|compress|network)\.|KafkaSourceReader|SplitFetcher|^net\.jpountz\.lz4\./ },
    { category: "decode", frame: /JsonRowDataDeserializationSchema|JsonToRowDataConverters|JsonParserToRowDataConverters|^org\.apache\.flink\.shaded\.jackson2?\..*(Parser|Deserializ|readTree)/ },
    { category: "encode", frame: /JsonRowDataSerializationSchema|RowDataToJsonConverters|^org\.apache\.flink\.shaded\.jackson2?\..*(Generator|Serializ|writeValue)/ },
    { category: "produce", frame: /^org\.apache\.kafka\.clients\.producer\.|KafkaWriter|KafkaSink/ },
    { category: "runtime", frame: /^org\.apache\.flink\.(python|streaming\.api\.runners\.python|table\.runtime\.arrow|fnexecution)|^org\.apache\.beam\.|^org\.apache\.arrow\.|\.grpc\./ },
    { category: "runtime", frame: /^org\.apache\.flink\.(runtime|streaming\.runtime|table\.runtime)\./ },
    // JFR's own event writing while it records: the profiler's cost, counted as overhead.
    { category: "runtime", frame: /^jdk\.jfr\./ },
  ],
  // The JVM's own threads, which JFR's execution samples do not cover.
  threads: [{ category: "runtime", thread: /^(GC Thread|G1 |VM Thread|C[12] CompilerThre|VM Periodic|Sweeper)/ }],
};
