/**
 * How `bench --profile` sorts the Streams app's JFR samples (Java frames, each stack rooted in
 * "[thread name]"). The innermost claimed frame decides, so Kafka's shared record and network
 * code (org.apache.kafka.common.*) is left unclaimed and goes to the client above it: the
 * consumer's fetch in the stream thread, the producer's send. Note: JFR's execution samples
 * cover Java code; time inside ONNX Runtime's native library shows only as its JNI frames
 * (ai.onnxruntime.OrtSession.run), which is where it is counted.
 */
import type { ProfileRules } from "@bench/core";

export const kafkaStreamsProfileRules: ProfileRules = {
  frames: [
    // The [1, 4] input tensor is built from the features: feature work, as the Python rows count building theirs.
    { category: "features", frame: /^ai\.onnxruntime\.OnnxTensor\.createTensor$/, anywhere: true },
    // score() itself reads the four metrics and fills the input (a buffer embedded, a request's array served).
    { category: "features", frame: /^bench\.(RiskModel\.score|ServedModel\.score|ModelCard\.feature)$/ },
    { category: "model", frame: /^ai\.onnxruntime\./ },
    // Served, the call is the model's share on the row's side: writing and reading its messages, grpc-java's call and its Netty transport.
    { category: "model", frame: /^bench\.(InferMessages|ServedModel)\.|^io\.grpc\.|^com\.google\.protobuf\./ },
    // Jackson: reading the tree (and the complete-record check) is decode, writing the output is encode.
    {
      category: "decode",
      frame: new RegExp(
        "^com\\.fasterxml\\.jackson\\.(databind\\.deser\\.|databind\\.ObjectMapper\\.(readTree|_readTreeAndClose|_readValue)|" +
          "core\\.(json\\.(UTF8StreamJsonParser|ByteSourceJsonBootstrapper|ReaderBasedJsonParser)|JsonFactory\\.(createParser|_createParser)|" +
          "base\\.ParserBase|io\\.NumberInput|util\\.TextBuffer|sym\\.))|^bench\\.RecordCheck\\.",
      ),
    },
    {
      category: "encode",
      frame: new RegExp(
        "^com\\.fasterxml\\.jackson\\.(databind\\.ser\\.|databind\\.ObjectMapper\\.(writeValueAsBytes|_writeValueAndClose|createObjectNode)|" +
          "databind\\.node\\.\\w+Node\\.serialize|core\\.(json\\.UTF8JsonGenerator|io\\.NumberOutput|util\\.ByteArrayBuilder))|" +
          "^org\\.apache\\.kafka\\.common\\.serialization\\.StringSerializer\\.",
      ),
    },
    // What process() does itself, below no deeper claim, is assembling the output node and its key.
    { category: "encode", frame: /^bench\.ScoreProcessor\.process$/ },
    { category: "fetch", frame: /^org\.apache\.kafka\.common\.compress\.Lz4BlockInputStream\.|^net\.jpountz\.lz4\..*Decompress/ },
    { category: "produce", frame: /^org\.apache\.kafka\.common\.compress\.Lz4BlockOutputStream\.|^net\.jpountz\.lz4\..*Compress/ },
    { category: "fetch", frame: /^org\.apache\.kafka\.clients\.consumer\./ },
    {
      category: "produce",
      frame: /^org\.apache\.kafka\.clients\.producer\.|^org\.apache\.kafka\.streams\.processor\.internals\.(RecordCollectorImpl|SinkNode)\./,
    },
    { category: "runtime", frame: /^org\.apache\.kafka\.streams\.|^org\.slf4j\.|^jdk\.jfr\./ },
    // A Kafka client thread's unclaimed work (its network I/O) is that client's.
    { category: "produce", frame: /^\[kafka-producer-network-thread/ },
    // Streams' loop and its other threads; the Attach Listener runs jcmd's JFR.start (the profiler's own cost).
    { category: "runtime", frame: /^\[(kafka-coordinator-heartbeat-thread|kafka-admin-client-thread|.*-StreamThread-\d+\]|.*CleanupThread|Attach Listener\])/ },
  ],
  // The JVM's own threads, which JFR's execution samples do not cover.
  threads: [{ category: "runtime", thread: /^(GC Thread|G1 |VM Thread|C[12] CompilerThre|VM Periodic|Sweeper)/ }],
};
