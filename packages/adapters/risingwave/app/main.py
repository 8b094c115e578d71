"""The frozen risk model as a RisingWave external UDF: an Arrow Flight server (PyPI arrow-udf).

RisingWave cannot run the model in-engine (embedded Python UDFs are off by default and
stdlib-only), so its stream actors call this server over Arrow Flight. One call carries one
chunk of rows; the function is declared batch=True, so it runs ONE eager PyTorch forward per
chunk. arrow-udf still boxes every incoming cell to a Python object (eval_batch calls
as_py() on each value, batch mode or not): the columnar wire format does not survive to the
model, and the four lists are packed back into one float32 tensor here.

Env: BENCH_MODELS_DIR (models/ with risk_model.py), BENCH_UDF_HOST, BENCH_UDF_PORT.
"""
import os
import sys

sys.path.insert(0, os.environ["BENCH_MODELS_DIR"])

import numpy as np  # noqa: E402
import torch  # noqa: E402
from arrow_udf import UdfServer, udf  # noqa: E402

from bench_kit import RiskScorer, announce_ready  # noqa: E402

# One torch thread: chunks are small (RisingWave's default chunk is 256 rows), and RisingWave's
# N actors already call in parallel (gRPC threads, each call under its own no_grad).
SCORER = RiskScorer()


# FLOAT64 for all four: the source reads every metric as DOUBLE PRECISION (src/sql.ts), since a
# producer may write an integer metric as 24.0 or 6.31E2.
@udf(input_types=["FLOAT64", "FLOAT64", "FLOAT64", "FLOAT64"], result_type="FLOAT64", batch=True)
def risk(latency_ms, queue_depth, cpu_usage, error_count):
    """Lists in, list out: one row per input row, in the order of the model's features."""
    metrics = np.array([latency_ms, queue_depth, cpu_usage, error_count], dtype=np.float64).T
    return SCORER.risks_of_metrics(metrics).tolist()


def main() -> None:
    host = os.environ.get("BENCH_UDF_HOST", "127.0.0.1")
    port = int(os.environ["BENCH_UDF_PORT"])
    # FlightServerBase binds in its constructor, so the port is open once this returns.
    server = UdfServer(location=f"{host}:{port}")
    server.add_function(risk)
    announce_ready(f"udf server on {host}:{port} (torch {torch.__version__})")
    # serve() turns SIGTERM into shutdown(): a clean stop.
    server.serve()


if __name__ == "__main__":
    main()
