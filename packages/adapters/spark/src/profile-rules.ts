/**
 * How `bench --profile` sorts the spark row's frames: JFR's from Spark's JVM (driver and, on
 * local[N], the executor's task threads) and py-spy's from the Python workers that run
 * mapInArrow (scoring.py names its stages decode, features, forward, encode) and from the
 * driver's Python process. Moving rows between the JVM and the Python workers (Arrow batches
 * over a local socket, pyspark's worker loop) is framework overhead by the definition:
 * serialisation between processes.
 */
import { PYTHON_COMMON_FRAMES, type ProfileRules } from "@bench/core";

export const sparkProfileRules: ProfileRules = {
  frames: [
    // Python worker: scoring.py's stages, by function name (py-spy: "decode (scoring.py:49)").
    { category: "decode", frame: /^(decode|parse) \(scoring\.py|^record_problem \(bench_kit\.py/ },
    { category: "features", frame: /^features \(scoring\.py|\bnormalise \(risk_model\.py|\bmetrics_of \(/ },
    ...PYTHON_COMMON_FRAMES,
    { category: "encode", frame: /^encode \(scoring\.py|^output_record \(bench_kit\.py/ },
    // pyspark's daemon and worker loop (py-spy names their files without the package here:
    // "manager (daemon.py:273)", its gc.collect() after each task), Arrow's IPC, py4j.
    {
      category: "runtime",
      frame: new RegExp(
        "\\((pyspark\\/)?(daemon|worker|serializers|util|worker_util|shuffle|accumulators|taskcontext)\\.py:\\d+\\)$|\\(pyspark\\/|\\(pyarrow\\/|" +
          "\\(libarrow|\\(py4j\\/",
      ),
    },
    // The driver's own loop (app/main.py waiting for SIGTERM while Spark runs the query).
    { category: "runtime", frame: /^(main|<module>) \(main\.py:\d+\)$/ },
    // JVM: the Kafka client (consumer reads and lz4 decompression; producer sends).
    {
      category: "fetch",
      frame: new RegExp(
        "^org\\.apache\\.kafka\\.clients\\.consumer\\.|^org\\.apache\\.spark\\.sql\\.kafka010\\.(consumer\\.|KafkaDataConsumer|" +
          "InternalKafkaConsumer|KafkaSourceRDD|KafkaBatchPartitionReader|KafkaMicroBatchStream)|lz4.*Decompress|" +
          "^org\\.apache\\.kafka\\.common\\.record\\..*(Iterator|Batch\\.iterator|decompress)",
      ),
    },
    {
      category: "produce",
      frame: new RegExp(
        "^org\\.apache\\.kafka\\.clients\\.producer\\.|^org\\.apache\\.spark\\.sql\\.kafka010\\.(KafkaDataWriter|KafkaWriteTask|KafkaRowWriter|" +
          "producer\\.)|lz4.*Compress",
      ),
    },
    { category: "produce", frame: /^\[kafka-producer-network-thread/ },
    // Rows to Arrow and back, the Python runner's socket, Spark's scheduler and generated code.
    { category: "runtime", frame: /^org\.apache\.spark\.(sql\.execution\.(python|arrow)|api\.python|sql\.execution\.streaming)\.|^org\.apache\.arrow\./ },
    { category: "runtime", frame: /^org\.apache\.spark\.|^jdk\.jfr\./ },
    // Class and resource lookups in the jars (Spark and Hadoop look services up per batch).
    { category: "runtime", frame: /^(java\.util\.(jar|zip)\.|jdk\.internal\.loader\.)/ },
  ],
  // The JVM's own threads, which JFR's execution samples do not cover.
  threads: [{ category: "runtime", thread: /^(GC Thread|G1 |VM Thread|C[12] CompilerThre|VM Periodic|Sweeper)/ }],
};
