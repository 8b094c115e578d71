"""Runs the Turbine rows' handlers without Turbine: the parts of app/ that do not need its
compiled core (which loads only on a free-threaded CPython 3.14).

Reads fixture lines (fixtures/records.jsonl) on stdin, builds the Arrow batch Turbine's decoder
would hand the handler (app/common.py's Projected schema: strings, int64 ts_ms, float64
metrics), and prints JSON: what each handler returned, and the facts the jest test checks.
Usage: python check_apps.py onnx|torch|wiring   (BENCH_MODELS_DIR set; app/ on sys.path; wiring
also needs the BENCH_* variables app/common.py reads)
"""
import json
import sys

import pyarrow as pa

SCHEMA = pa.schema(
    [
        ("event_id", pa.string()),
        ("ts_ms", pa.int64()),
        ("partition_key", pa.string()),
        ("latency_ms", pa.float64()),
        ("queue_depth", pa.float64()),
        ("cpu_usage", pa.float64()),
        ("error_count", pa.float64()),
    ]
)


def decoded_batch(records: list[dict]) -> pa.RecordBatch:
    return pa.RecordBatch.from_pylist([{f.name: r[f.name] for f in SCHEMA} for r in records], schema=SCHEMA)


def run_onnx(batch: pa.RecordBatch) -> dict:
    from onnx_features import FEATURE_COLUMNS, Score, check_model, score_features, session

    check_model()
    out = Score().process(batch)
    return {
        "columns": [f"{f.name}:{f.type}" for f in out.schema],
        "event_ids": out.column("event_id").to_pylist(),
        "features": [out.column(c).to_pylist() for c in FEATURE_COLUMNS],
        "risk": score_features(session(), out),
    }


def run_torch(batch: pa.RecordBatch) -> dict:
    import torch

    from torch_score import Score

    column = batch.column("latency_ms")
    view = torch.from_dlpack(column)
    out = Score().process(batch)
    return {
        "columns": [f"{f.name}:{f.type}" for f in out.schema],
        "event_ids": out.column("event_id").to_pylist(),
        "risk": out.column("risk").to_pylist(),
        # DLPack views Arrow's data buffer: the same address, no copy.
        "dlpack_shares_buffer": view.data_ptr() == column.buffers()[1].address,
        "torch": torch.__version__,
    }


def run_wiring() -> dict:
    """app/common.py's calls into Turbine, recorded by a stand-in for its two classes: the
    topics' options and what subscribe() is given at parallelism 1 and 2. Only the names the
    app uses are stood in; the real package is what the integration test runs."""
    import types

    calls = []

    class KafkaBroker:
        def __init__(self, **kwargs):
            calls.append(["KafkaBroker", kwargs])

        def topic(self, name, **kwargs):
            calls.append(["topic", name, {k: (v.__name__ if isinstance(v, type) else v) for k, v in kwargs.items()}])
            return name

    class Turbine:
        def __init__(self, broker, **kwargs):
            calls.append(["Turbine", kwargs])

    sys.modules["turbine"] = types.SimpleNamespace(KafkaBroker=KafkaBroker, Turbine=Turbine)
    import common

    return {"calls": calls, "parallelism_1": common.subscribe_options(1), "parallelism_2": common.subscribe_options(2)}


def main() -> None:
    if sys.argv[1] == "wiring":
        print(json.dumps(run_wiring()))
        return
    records = [json.loads(line)["record"] for line in sys.stdin if line.strip()]
    batch = decoded_batch(records)
    result = run_onnx(batch) if sys.argv[1] == "onnx" else run_torch(batch)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
