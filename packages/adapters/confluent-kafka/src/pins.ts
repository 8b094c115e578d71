/**
 * The plain confluent-kafka app's Python environment over Debian's torch (core's debianTorchEnv):
 * the client and the JSON library, every distribution pinned. confluent-kafka 2.16.1 declares no
 * dependencies (its wheel bundles librdkafka). Served, the app calls the model server with
 * tritonclient's gRPC client: it and its dependencies as pip resolves them over Debian's numpy.
 */
import type { DebianTorchRow } from "@bench/core";

export const CONFLUENT_KAFKA_VERSION = "2.16.1";
export const TRITONCLIENT_VERSION = "2.73.0";

export const PYTHON_ROW: DebianTorchRow = {
  requirements: [
    `confluent-kafka==${CONFLUENT_KAFKA_VERSION}`,
    // The JSON library the other Python rows decode with (faststream's codec, quix's json serde).
    "orjson==3.13.0",
    // The served path's Open Inference Protocol client (served_client.py) and what it needs.
    `tritonclient[grpc]==${TRITONCLIENT_VERSION}`,
    ..."grpcio==1.85.4 protobuf==6.33.6 python-rapidjson==1.25 urllib3==2.8.0 packaging==26.4 ml_dtypes==0.5.4 typing_extensions==4.16.0".split(" "),
  ],
  versions: { "confluent-kafka": "confluent-kafka", orjson: "orjson", tritonclient: "tritonclient" },
  imports: ["confluent_kafka", "orjson", "tritonclient.grpc"],
};
