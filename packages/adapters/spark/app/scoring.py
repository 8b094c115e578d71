"""The Spark row's scoring function, run by Spark's Python workers through mapInArrow.

A module of its own (shipped with addPyFile) so that workers import it by name: its model is
then loaded once per Python worker process and kept while Spark reuses the worker, instead of
travelling pickled with every task. Each Arrow batch of Kafka rows (value, offset) is parsed in
full with orjson, checked with the kit's complete-record rule, scored with ONE torch forward and
returned as Kafka rows (key = partition_key, value = the output JSON). A record that is not a
complete telemetry record comes back with a null value and a log line; the job counts those
rows (observe) and leaves them out before the sink.
"""
import gc
import os
import sys
from typing import Iterator

import orjson
import pyarrow as pa
import torch

sys.path.insert(0, os.environ["BENCH_MODELS_DIR"])
from bench_kit import metrics_of, output_record, record_problem  # noqa: E402
from risk_model import load_torch_model, normalise  # noqa: E402

OUTPUT_SCHEMA = "key string, value binary"
_model = None


def model():
    global _model
    if _model is None:
        # The network is tiny: intra-op threads only add wake-ups; Spark runs one worker per task.
        torch.set_num_threads(1)
        _model = load_torch_model()
        # pyspark's daemon runs gc.collect() after every task of a reused worker; with torch,
        # pyarrow and pandas loaded that walk took about 30 % of the row's CPU in a profile at
        # 4,000/s. The modules and the model live as long as the worker: freeze them out of it.
        gc.freeze()
    return _model


def parse(raw, offset):
    """The record, or None after logging why it cannot be scored."""
    try:
        record = orjson.loads(raw or b"")
        problem = record_problem(record)
    except orjson.JSONDecodeError as error:
        problem = f"not JSON: {error}"
    if problem is None:
        return record
    print(f"skipped record at offset {offset}: {problem}", file=sys.stderr, flush=True)
    return None


def decode(batch: pa.RecordBatch) -> list:
    """Every row's record, None where it cannot be scored."""
    return [parse(raw, offset) for raw, offset in zip(batch.column("value").to_pylist(), batch.column("offset").to_pylist())]


def features(records: list) -> list:
    return [normalise(*metrics_of(r)) for r in records]


def forward(rows: list) -> list:
    """ONE forward for the batch's good records."""
    with torch.no_grad():
        return model()(torch.tensor(rows, dtype=torch.float32)).squeeze(1).tolist()


def encode(records: list, risks: list) -> pa.RecordBatch:
    """Kafka rows in input order; a skipped record's row has a null value (filtered by the job)."""
    scored = iter(risks)
    keys, values = [], []
    for record in records:
        if record is None:
            keys.append(None)
            values.append(None)
            continue
        key = record.get("partition_key")
        keys.append(key if isinstance(key, str) else None)
        values.append(orjson.dumps(output_record(record, next(scored))))
    return pa.RecordBatch.from_arrays([pa.array(keys, pa.string()), pa.array(values, pa.binary())], names=["key", "value"])


def score_batch(batch: pa.RecordBatch) -> pa.RecordBatch:
    records = decode(batch)
    good = [r for r in records if r is not None]
    return encode(records, forward(features(good)) if good else [])


def score_batches(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
    for batch in batches:
        yield score_batch(batch)
