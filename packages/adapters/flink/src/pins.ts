/**
 * The job's Python environment over Debian's torch (core's debianTorchEnv): apache-flink from
 * the package index. apache-flink 2.2.1 is the newest 2.2.x and ships cp311 wheels (pemja too),
 * so nothing is compiled; apache-flink-libraries carries the Flink distribution's jars (about
 * 310 MB), which is why this is the heaviest install. Its transitive dependencies are not
 * pinned yet: no resolved install was at hand to read them from (pip freeze of the venv).
 */
import type { DebianTorchRow } from "@bench/core";

export const FLINK_VERSION = "2.2.1";

export const PYTHON_ROW: DebianTorchRow = {
  requirements: [`apache-flink==${FLINK_VERSION}`],
  versions: { flink: "apache-flink", pandas: "pandas", pyarrow: "pyarrow", numpy: "numpy" },
  imports: ["pyflink.table", "pandas", "pyarrow"],
};
