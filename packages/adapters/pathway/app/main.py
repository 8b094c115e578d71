"""Pathway row: score every record with the frozen risk model and republish it.

One Pathway dataflow: pw.io.kafka.read of the input topic as raw bytes with the Kafka metadata
column, a batched pw.udf that decodes each record in full (orjson), checks it with the kit's
complete-record rule and runs ONE eager PyTorch forward per call (the engine hands it up to 128
rows a call), then pw.io.kafka.write of the encoded output record as the message value.

Why raw bytes and not Pathway's own format="json": that parser (Rust) keeps the engine running
only with terminate_on_error=False, drops a record that is not JSON with a log line that has no
offset, and turns a record missing a field into a row of error cells with one error-log entry per
field; there is no way to count skipped records one by one. Reading raw bytes with
with_metadata=True, the UDF sees every record with its offset, and skips and counts the bad ones.

Consumed: Pathway's Kafka reader does not commit what it has processed (librdkafka's auto-commit
would commit what it has fetched), so the app writes the input offset it has scored through to a
small file each second; the adapter reads it as the engine counter.

Settings come from BENCH_* environment variables; the Kafka client settings every row shares
arrive as BENCH_KAFKA_CONSUMER / BENCH_KAFKA_PRODUCER (librdkafka's names, which Pathway's
rdkafka-based connectors take as they are).
"""
import logging
import os
import sys

# No licence key and no monitoring endpoint: Pathway's engine then leaves telemetry disabled and
# makes no licence call (both only happen with a key or an endpoint). Cleared before the import,
# which reads them.
for _name in ("PATHWAY_LICENSE_KEY", "PATHWAY_MONITORING_SERVER", "PATHWAY_DETAILED_METRICS_DIR"):
    os.environ.pop(_name, None)

import orjson  # noqa: E402
import pathway as pw  # noqa: E402

sys.path.insert(0, os.environ["BENCH_MODELS_DIR"])
from bench_kit import ConsumedCounter, RecordDecoder, RiskScorer, announce_ready, bench_env, librdkafka_config, output_record, settings_as_text  # noqa: E402

BENCH = bench_env()
# Rows per UDF call at most. Pathway 0.33's engine calls a batched UDF with at most 128 rows
# (measured), so this bound is not what limits the batch.
MAX_BATCH = int(os.environ.get("BENCH_PATHWAY_MAX_BATCH", "10000"))
# How often the reader closes a minibatch (Pathway's autocommit_duration_ms, default 1500 ms):
# the latency floor. 100 ms keeps latency comparable with the other rows.
COMMIT_MS = int(os.environ.get("BENCH_PATHWAY_COMMIT_MS", "100"))
CONSUMED_FILE = os.environ["BENCH_PATHWAY_CONSUMED_FILE"]
STATE_DIR = os.environ.get("BENCH_PATHWAY_STATE_DIR", "")

scorer = RiskScorer()
# Several engine workers may run the UDF: the kit's decoder and counter are thread-safe.
record_decoder = RecordDecoder(orjson.loads)
consumed = ConsumedCounter(CONSUMED_FILE)


def show_client_configs():
    """Pathway hands librdkafka's log to Python's logging as the "librdkafka" logger, at INFO and
    above by default: lowering that logger to DEBUG lets Pathway's own handler print the
    configuration dump that debug=conf asks for (facility CONF), once per client."""
    logging.getLogger("librdkafka").setLevel(logging.DEBUG)


def encoded(records, risks):
    """Each scored record's output value; None where the record was skipped."""
    risk = iter(risks)
    return [None if r is None else orjson.dumps(output_record(r, next(risk))) for r in records]


# deterministic=True: the model is a pure function, so Pathway need not memoise each result
# (it would keep every output of an append-only stream in memory otherwise).
@pw.udf(max_batch_size=MAX_BATCH, deterministic=True)
def score(values: list[bytes], offsets: list[int]) -> list[bytes | None]:
    records = [record_decoder.decode(v, o) for v, o in zip(values, offsets)]
    risks = scorer.risks([r for r in records if r is not None])
    consumed.advance(max(offsets) + 1)
    return encoded(records, risks)


def pipeline():
    # Pathway takes librdkafka's settings as strings only.
    consumer = settings_as_text({
        **librdkafka_config("consumer"),
        "bootstrap.servers": BENCH.bootstrap,
        "group.id": BENCH.group_id,
        "auto.offset.reset": "earliest",
    })
    producer = settings_as_text({**librdkafka_config("producer"), "bootstrap.servers": BENCH.bootstrap})
    records = pw.io.kafka.read(
        consumer,
        topic=BENCH.input_topic,
        format="raw",
        with_metadata=True,
        # Row ids from the reader, not from the message key: records share partition keys.
        autogenerate_key=True,
        autocommit_duration_ms=COMMIT_MS,
        name="input",
    )
    scored = records.select(out=score(pw.this.data, pw.this._metadata["offset"].as_int()))
    outputs = scored.filter(pw.this.out.is_not_none()).select(out=pw.unwrap(pw.this.out))
    pw.io.kafka.write(outputs, producer, BENCH.output_topic, format="raw", value=outputs.out, name="output")


def persistence():
    """Pathway's own restart mechanism, in a folder that outlives the process. Without a licence
    key only PERSISTING mode runs (OPERATOR_PERSISTING needs the FULL-PERSISTENCE entitlement):
    it snapshots every input record with its offset, and a restart replays the snapshot without
    re-emitting outputs already written, then seeks the reader past it. One snapshot a second
    bounds the replay window (the default, 0, snapshots every minibatch)."""
    if not STATE_DIR:
        return None
    return pw.persistence.Config(
        pw.persistence.Backend.filesystem(STATE_DIR),
        persistence_mode=pw.PersistenceMode.PERSISTING,
        snapshot_interval_ms=1000,
    )


if __name__ == "__main__":
    pw.set_license_key(None)
    show_client_configs()
    pipeline()
    consumed.keep_written()
    # The graph is built and the reader is about to subscribe: the runner may start producing.
    announce_ready(f"threads={os.environ.get('PATHWAY_THREADS', '1')}")
    pw.run(monitoring_level=pw.MonitoringLevel.NONE, persistence_config=persistence())
