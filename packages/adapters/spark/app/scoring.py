"""The Spark row's scoring function, run by Spark's Python workers through mapInArrow.

A module of its own (shipped with addPyFile) so that workers import it by name: its model is
then loaded once per Python worker process and kept while Spark reuses the worker, instead of
travelling pickled with every task. Each Arrow batch of Kafka rows (value, offset) is parsed in
full with orjson, checked with the kit's complete-record rule, scored with ONE torch forward
(the kit's RiskScorer) and returned as Kafka rows (key = partition_key, value = the output
JSON). A record that is not a complete telemetry record comes back with a null value and the
kit's skip line; the job counts those rows (observe) and leaves them out before the sink.
"""
import gc
import os
import sys
from typing import Iterator

import orjson
import pyarrow as pa

sys.path.insert(0, os.environ["BENCH_MODELS_DIR"])
from bench_kit import RecordDecoder, RiskScorer, output_record  # noqa: E402

OUTPUT_SCHEMA = "key string, value binary"
# The skip count is this Python worker's; the job's total is counted by observe().
record_decoder = RecordDecoder(orjson.loads)
_scorer = None


def scorer() -> RiskScorer:
    global _scorer
    if _scorer is None:
        _scorer = RiskScorer()
        # pyspark's daemon runs gc.collect() after every task of a reused worker, a walk over
        # every object torch, pyarrow and pandas loaded: the modules and the model live as long
        # as the worker, so they are frozen out of it.
        gc.freeze()
    return _scorer


def decode(batch: pa.RecordBatch) -> list:
    """Every row's record, None where it cannot be scored (the decoder logs and counts it)."""
    return [record_decoder.decode(raw, offset) for raw, offset in zip(batch.column("value").to_pylist(), batch.column("offset").to_pylist())]


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
    return encode(records, scorer().risks([r for r in records if r is not None]))


def score_batches(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
    for batch in batches:
        yield score_batch(batch)
