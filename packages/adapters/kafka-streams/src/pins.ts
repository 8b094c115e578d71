/**
 * Every artifact the Streams app runs on, pinned; Maven resolves their runtime dependencies
 * (kafka-clients 4.1.1, lz4-java, snappy, zstd-jni, rocksdbjni, jackson-core/annotations,
 * slf4j-api 1.7.36, grpc-api, grpc-core and theirs) into the cache. kafka-streams matches the
 * bench's broker (4.1.1). Kafka 4 logs through SLF4J 1.7 and ships no binding: slf4j-simple puts
 * the clients' INFO lines (their logged configurations, which the integration test reads) and the
 * app's on stderr.
 *
 * Served, the app calls the model server with grpc-java (grpc-stub's blocking unary call over
 * grpc-netty-shaded's transport) and writes the Open Inference Protocol's few messages it uses with
 * protobuf-java's coded streams (InferMessages.java): no protoc runs here, so there are no
 * generated classes and no grpc-protobuf. protobuf-java is the version grpc-java 1.85 builds with.
 */
import type { MavenArtifact } from "@bench/core";

export const KAFKA_STREAMS_VERSION = "4.1.1";
export const ONNXRUNTIME_VERSION = "1.29.0";
export const JACKSON_VERSION = "2.19.0";
export const SLF4J_VERSION = "1.7.36";
export const GRPC_JAVA_VERSION = "1.85.1";
export const PROTOBUF_JAVA_VERSION = "3.25.9";

export const ARTIFACTS: readonly MavenArtifact[] = [
  { groupId: "org.apache.kafka", artifactId: "kafka-streams", version: KAFKA_STREAMS_VERSION },
  { groupId: "com.microsoft.onnxruntime", artifactId: "onnxruntime", version: ONNXRUNTIME_VERSION },
  { groupId: "com.fasterxml.jackson.core", artifactId: "jackson-databind", version: JACKSON_VERSION },
  { groupId: "org.slf4j", artifactId: "slf4j-simple", version: SLF4J_VERSION },
  { groupId: "io.grpc", artifactId: "grpc-netty-shaded", version: GRPC_JAVA_VERSION },
  { groupId: "io.grpc", artifactId: "grpc-stub", version: GRPC_JAVA_VERSION },
  { groupId: "com.google.protobuf", artifactId: "protobuf-java", version: PROTOBUF_JAVA_VERSION },
];

/** What the page shows for the row (java is added from the JVM found); the gRPC client is the served row's. */
export const VERSIONS: Readonly<Record<string, string>> = {
  "kafka-streams": KAFKA_STREAMS_VERSION,
  onnxruntime: ONNXRUNTIME_VERSION,
  jackson: JACKSON_VERSION,
  "grpc-java": GRPC_JAVA_VERSION,
  "protobuf-java": PROTOBUF_JAVA_VERSION,
};
