"""Runs the Turbine rows' handlers without Turbine: the parts of app/ that do not need its
compiled core (which loads only on a free-threaded CPython 3.14).

Reads fixture lines (fixtures/records.jsonl) on stdin, builds the Arrow batch Turbine's decoder
would hand the handler (app/common.py's Projected schema: strings, int64 ts_ms, float64
metrics), and prints JSON: what each handler returned, and the facts the jest test checks.
Usage: python check_apps.py onnx|torch|wiring|ready   (BENCH_MODELS_DIR set; app/ on sys.path;
wiring and ready also need the BENCH_* variables app/common.py reads)
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


def stand_in_turbine(calls: list) -> None:
    """A stand-in for the two classes of turbine-fast app/common.py uses, recording their calls.
    Only the names the app uses are stood in; the real package is what the integration test runs."""
    import types

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


def run_wiring() -> dict:
    """app/common.py's calls into Turbine: the topics' options and what subscribe() is given at
    parallelism 1 and 2."""
    calls = []
    stand_in_turbine(calls)
    import common

    return {"calls": calls, "parallelism_1": common.subscribe_options(1), "parallelism_2": common.subscribe_options(2)}


def run_ready(not_ready_polls: int = 2, settle_s: float = 1.0) -> dict:
    """app/common.py's ready line against a stand-in for Turbine's /ready endpoint, which answers
    503 `not_ready_polls` times, then 200: what the app printed and how often it polled, counted
    `settle_s` after the first 200 (a poller that does not stop once ready keeps counting)."""
    import contextlib
    import http.server
    import io
    import os
    import threading
    import time

    polls = []

    class Ready(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            polls.append(self.path)
            self.send_response(200 if len(polls) > not_ready_polls else 503)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Ready)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    os.environ["BENCH_TURBINE_API_PORT"] = str(server.server_address[1])
    stand_in_turbine([])
    import common

    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        common.announce_ready_when_consuming()
        deadline = time.monotonic() + 10
        while len(polls) <= not_ready_polls and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(settle_s)
    server.shutdown()
    return {"printed": printed.getvalue().splitlines(), "polls": polls}


def main() -> None:
    if sys.argv[1] in ("wiring", "ready"):
        print(json.dumps(run_wiring() if sys.argv[1] == "wiring" else run_ready()))
        return
    records = [json.loads(line)["record"] for line in sys.stdin if line.strip()]
    batch = decoded_batch(records)
    result = run_onnx(batch) if sys.argv[1] == "onnx" else run_torch(batch)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
