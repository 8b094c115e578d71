/**
 * The bytewax app's Python environment over Debian's torch (core's debianTorchEnv): Bytewax with
 * its Kafka connector and every distribution they pull in, pinned as the 0.21.1 install resolves
 * them in a venv without Debian's site packages (so no pin is one Debian happened to have).
 */
import type { DebianTorchRow } from "@bench/core";

/** The last release: Bytewax is community-maintained since its company wound down in 2025. */
export const BYTEWAX_VERSION = "0.21.1";

export const PYTHON_ROW: DebianTorchRow = {
  requirements: [
    `bytewax[kafka]==${BYTEWAX_VERSION}`,
    // The kafka extra: confluent-kafka (librdkafka, whose names the shared settings use),
    // fastavro and requests for the schema-registry serdes the app does not use.
    "confluent-kafka==2.16.1",
    "fastavro==1.13.1",
    "requests==2.34.2",
    "certifi==2026.10.19.post1",
    "charset-normalizer==3.5.3",
    "idna==3.20",
    "urllib3==2.8.0",
    // The JSON codec every other Python row's app uses (faststream, quix, confluent-kafka): the
    // decode and encode are the same work, so "what the framework adds" is not a JSON library's.
    "orjson==3.13.0",
    // Bytewax's own.
    "prometheus_client==0.26.0",
    "typing_extensions==4.16.0",
  ],
  versions: { bytewax: "bytewax", "confluent-kafka": "confluent-kafka", orjson: "orjson" },
  imports: ["orjson", "bytewax.connectors.kafka", "bytewax.run", "bytewax.recovery"],
};
