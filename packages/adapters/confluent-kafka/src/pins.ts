/**
 * The plain confluent-kafka app's Python environment over Debian's torch (core's debianTorchEnv):
 * the client and the JSON library, every distribution pinned. confluent-kafka 2.16.1 declares no
 * dependencies (its wheel bundles librdkafka), so these two are the whole resolution.
 */
import type { DebianTorchRow } from "@bench/core";

export const CONFLUENT_KAFKA_VERSION = "2.16.1";

export const PYTHON_ROW: DebianTorchRow = {
  requirements: [
    `confluent-kafka==${CONFLUENT_KAFKA_VERSION}`,
    // The JSON library the other Python rows decode with (faststream's codec, quix's json serde).
    "orjson==3.13.0",
  ],
  versions: { "confluent-kafka": "confluent-kafka", orjson: "orjson" },
  imports: ["confluent_kafka", "orjson"],
};
