/**
 * The quix app's Python environment over Debian's torch (core's debianTorchEnv): quixstreams and
 * every distribution it pulls in, pinned as its 3.28.1 install resolved them.
 */
import type { DebianTorchRow } from "@bench/core";

export const QUIXSTREAMS_VERSION = "3.28.1";

export const PYTHON_ROW: DebianTorchRow = {
  requirements: [
    `quixstreams==${QUIXSTREAMS_VERSION}`,
    "annotated-types==0.8.0",
    "anyio==4.16.0",
    "Authlib==1.9.10",
    "avro==1.12.2",
    "cachetools==8.0.2",
    "cffi==2.1.1",
    "confluent-kafka==2.12.2",
    "cryptography==50.0.2",
    "fastavro==1.13.1",
    "googleapis-common-protos==1.76.0",
    "h11==0.16.0",
    "httpcore==1.0.9",
    "httpx==0.28.1",
    "joserfc==1.8.0",
    "jsonlines==4.0.0",
    "jsonpath-ng==1.16.0",
    "jsonschema==4.26.0",
    "jsonschema-specifications==2025.9.1",
    "markdown-it-py==4.3.0",
    "mdurl==0.1.2",
    "orjson==3.13.0",
    "protobuf==7.36.2",
    "pycparser==3.12",
    "pydantic==2.13.5",
    "pydantic-settings==2.15.0",
    "pydantic_core==2.46.5",
    "pyrsistent==0.20.0",
    "python-dotenv==1.2.4",
    "referencing==0.37.0",
    "rich==15.0.0",
    "rocksdict==0.3.29",
    "rpds-py==2026.9.1",
    "typing-inspection==0.4.5",
    "typing_extensions==4.16.0",
  ],
  versions: { quix: "quixstreams", "confluent-kafka": "confluent-kafka" },
  imports: ["quixstreams"],
};
