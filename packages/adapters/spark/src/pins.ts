/**
 * The Spark app's Python environment and the JVM artifacts it adds to Spark: every Python
 * distribution pinned, over Debian's torch (core's debianTorchEnv, numpy stays Debian's 1.24),
 * and the Kafka connector at the same Spark version (Maven Central's last is 4.2.0, so pyspark
 * stays on 4.2.0 too).
 */
import type { DebianTorchRow, MavenArtifact } from "@bench/core";

export const SPARK_VERSION = "4.2.0";

export const PYTHON_ROW: DebianTorchRow = {
  requirements: [
    `pyspark==${SPARK_VERSION}`,
    // pyspark 4.2 asks for py4j >=0.10.9.7,<0.10.9.10.
    "py4j==0.10.9.9",
    // pyspark 4.2's Arrow/pandas paths: pandas >= 2.2.0, pyarrow >= 18.0.0. pyarrow 23 and later
    // refuse numpy 1.x at import; 22.0.0 is the last that loads with Debian's numpy 1.24.
    "pyarrow==22.0.0",
    "pandas==2.3.3",
    "python-dateutil==2.9.0.post0",
    "six==1.17.0",
    "pytz==2026.6",
    "tzdata==2026.6",
    // The record parse in the Arrow UDF, as the faststream row parses.
    "orjson==3.13.0",
  ],
  versions: { pyspark: "pyspark", pyarrow: "pyarrow", pandas: "pandas" },
  imports: ["pyspark", "pyarrow", "pandas", "orjson"],
};

/** The Structured Streaming Kafka source and sink; its runtime dependencies come with it. */
export const KAFKA_CONNECTOR: MavenArtifact = { groupId: "org.apache.spark", artifactId: "spark-sql-kafka-0-10_2.13", version: SPARK_VERSION };
