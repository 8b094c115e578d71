/**
 * The FastStream app's Python environment: every distribution pinned, so a fresh machine builds
 * the same venv, over Debian's torch (core's debianTorchEnv).
 */
import type { DebianTorchRow } from "@bench/core";

export const FASTSTREAM_VERSION = "0.7.8";

export const PYTHON_ROW: DebianTorchRow = {
  requirements: [
    `faststream[kafka]==${FASTSTREAM_VERSION}`,
    // lz4 in aiokafka goes through cramjam: input and output topics are lz4.
    "aiokafka[lz4]==0.14.0",
    "cramjam==2.14.0",
    // FastStream's JSON codec uses orjson whenever it is importable.
    "orjson==3.13.0",
    // FastStream's own dependencies, pinned as the 0.7.8 install resolved them.
    "fast-depends==3.0.9",
    "anyio==4.16.0",
    "pydantic==2.14.4",
    "pydantic_core==2.50.5",
    "typing-extensions==4.16.0",
    "typing-inspection==0.4.5",
    "annotated-types==0.8.0",
    "async-timeout==5.0.1",
    "packaging==26.4",
  ],
  versions: { faststream: "faststream", aiokafka: "aiokafka" },
  imports: ["faststream", "aiokafka", "orjson"],
};
