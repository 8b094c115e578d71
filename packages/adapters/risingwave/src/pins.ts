/** The UDF server's Python environment over Debian's torch (core's debianTorchEnv): every pin. */
import type { DebianTorchRow } from "@bench/core";

export const PYTHON_ROW: DebianTorchRow = {
  requirements: ["arrow-udf==0.3.2", "pyarrow==25.0.1"],
  versions: { "arrow-udf": "arrow-udf", pyarrow: "pyarrow", numpy: "numpy" },
  imports: ["arrow_udf", "pyarrow"],
};
