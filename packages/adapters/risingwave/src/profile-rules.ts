/**
 * How `bench --profile` sorts risingwave's frames. Only the arrow-udf Flight server is Python
 * (py-spy); the RisingWave server is a Rust binary no profiler here reads, so its CPU shows as
 * "other" with its share stated, never spread over the categories.
 */
import { PYTHON_COMMON_FRAMES, type ProfileRules } from "@bench/core";

export const risingwaveProfileRules: ProfileRules = {
  frames: [
    { category: "features", frame: /\(numpy\/|^(clip|column_stack|astype)\b/ },
    ...PYTHON_COMMON_FRAMES,
    // Rows to and from the server as Arrow batches over Flight: serialisation between processes.
    { category: "runtime", frame: /\(arrow_udf\/|\(pyarrow\/|libarrow|\(grpc/ },
  ],
};
