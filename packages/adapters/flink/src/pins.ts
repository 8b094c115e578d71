/**
 * The job's Python environment over Debian's torch (core's debianTorchEnv): apache-flink from
 * the package index. apache-flink 2.2.1 is the newest 2.2.x and ships cp311 wheels (pemja too),
 * so nothing is compiled; apache-flink-libraries carries the Flink distribution's jars (about
 * 310 MB), which is why this is the heaviest install. Its other transitive dependencies are not
 * pinned yet: no resolved install was at hand to read them from (pip freeze of the venv).
 *
 * Served, the UDF calls the model server with tritonclient's gRPC client. apache-flink 2.2.1 takes
 * apache-beam <= 2.61.0, whose Python workers run on grpcio < 1.66 and protobuf < 6; tritonclient
 * 2.73.0 (the confluent-kafka row's) asks grpcio >= 1.81.1 and protobuf >= 6.30, which pip refuses
 * (ResolutionImpossible). pip's own pick beside an unpinned tritonclient[grpc], 2.66.0, declares
 * grpcio >= 1.63 but its generated stubs refuse to import under grpcio < 1.67.1; 2.49.0 is the
 * newest whose stubs were generated for grpcio 1.65.5 (2.50.0's for 1.66.1). Its grpc extra takes
 * protobuf < 5, so pip resolves protobuf 4.25.9 (Beam excludes 4.21 to 4.24), where the venv had
 * 5.29.6 without it: Beam's workers run on that protobuf, embedded too.
 */
import type { DebianTorchRow } from "@bench/core";

export const FLINK_VERSION = "2.2.1";
export const TRITONCLIENT_VERSION = "2.49.0";
/** Beam's ceilings (apache-beam 2.61.0: grpcio < 1.66.0, protobuf < 6), which the served client must sit under. */
export const GRPCIO_VERSION = "1.65.5";
export const PROTOBUF_VERSION = "4.25.9";

export const PYTHON_ROW: DebianTorchRow = {
  requirements: [
    `apache-flink==${FLINK_VERSION}`,
    `tritonclient[grpc]==${TRITONCLIENT_VERSION}`,
    `grpcio==${GRPCIO_VERSION}`,
    `protobuf==${PROTOBUF_VERSION}`,
    ..."python-rapidjson==1.25 urllib3==2.8.0 packaging==26.4".split(" "),
  ],
  versions: { flink: "apache-flink", pandas: "pandas", pyarrow: "pyarrow", numpy: "numpy", tritonclient: "tritonclient" },
  imports: ["pyflink.table", "pandas", "pyarrow", "tritonclient.grpc"],
};
