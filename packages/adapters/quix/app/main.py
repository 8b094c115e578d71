"""Quix Streams scoring app: one StreamingDataFrame, one eager PyTorch forward per record.

quixstreams hands the pipeline one record at a time and has no batching primitive, so the
forward is per record: that is the framework's shape. The message key (the record's
partition_key) is carried through to the output untouched by to_topic().

Settings come from the BENCH_* environment variables the adapter sets; the Kafka client
settings every row shares arrive as BENCH_KAFKA_CONSUMER / BENCH_KAFKA_PRODUCER (JSON).
"""
import json
import logging
import math
import os
import sys

sys.path.insert(0, os.environ["BENCH_MODELS_DIR"])

import torch  # noqa: E402
from quixstreams import Application  # noqa: E402
from quixstreams.models.serializers.exceptions import SerializationError  # noqa: E402

from risk_model import load_torch_model, normalise  # noqa: E402



def client_config(variable):
    """The shared settings plus debug=conf: librdkafka logs each client's effective
    configuration once, at creation, so the run's log shows what the clients really run with."""
    return {**json.loads(os.environ[variable]), "debug": "conf"}


def show_client_configs():
    """quixstreams hands librdkafka's log to its client modules' loggers, whose handler drops
    DEBUG: a handler of our own prints the configuration dump (facility CONF, DEBUG) and no
    other DEBUG line (none of theirs is on the per-record path)."""
    handler = logging.StreamHandler(sys.stdout)
    handler.addFilter(lambda record: record.levelno < logging.INFO and record.getMessage().startswith("CONF "))
    for name in ("quixstreams.kafka.consumer", "quixstreams.kafka.producer"):
        client_logger = logging.getLogger(name)
        client_logger.setLevel(logging.DEBUG)
        client_logger.addHandler(handler)


class BadRecord(ValueError):
    """A record that cannot be scored: skipped and counted, never fatal."""


def metrics_of(row):
    """The four features' inputs, or BadRecord when the record is not a complete telemetry record."""
    if not isinstance(row, dict):
        raise BadRecord(f"not a JSON object: {type(row).__name__}")
    values = []
    for name in ("latency_ms", "queue_depth", "cpu_usage", "error_count", "ts_ms"):
        value = row.get(name)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise BadRecord(f"{name} is not a finite number: {value!r}")
        values.append(value)
    if not isinstance(row.get("event_id"), str):
        raise BadRecord("no event_id")
    return values[:4]


class SkipCounter:
    """quixstreams' error callbacks: a record that cannot be read or scored is skipped (its
    offset is committed with the rest) and counted; any other error still stops the app."""

    def __init__(self):
        self.skipped = 0

    def _skip(self, what, exc, logger):
        self.skipped += 1
        logger.warning("skipped record (%s): %s (skipped %d)", what, exc, self.skipped)
        return True

    def on_consumer_error(self, exc, message, logger):
        # A message the JSON deserializer refused (not JSON, empty, not UTF-8); message is the raw record.
        if message is not None and isinstance(exc, SerializationError):
            return self._skip("not JSON", exc, logger)
        return False

    def on_processing_error(self, exc, row, logger):
        if isinstance(exc, BadRecord):
            return self._skip("malformed", exc, logger)
        return False


class ReadyOnStart(logging.Filter):
    """Prints BENCH_READY when quixstreams reports it has subscribed and is polling."""

    def filter(self, record):
        if record.getMessage().startswith("The application started"):
            print("BENCH_READY", flush=True)
        return True


def main():
    model = load_torch_model()
    # The app is the only thread that calls the model: no autograd bookkeeping per forward.
    torch.set_grad_enabled(False)

    skips = SkipCounter()

    def score(row):
        features = torch.tensor([normalise(*metrics_of(row))], dtype=torch.float32)
        return {"event_id": row["event_id"], "ts_ms": row["ts_ms"], "risk": model(features).item()}

    app = Application(
        broker_address=os.environ["BENCH_BOOTSTRAP"],
        consumer_group=os.environ["BENCH_GROUP_ID"],
        auto_offset_reset="earliest",
        # Checkpoint (flush the producer, then commit the consumed offsets) every second:
        # at-least-once, and the runner reads consumed/s from the committed offset.
        commit_interval=1.0,
        processing_guarantee="at-least-once",
        consumer_extra_config=client_config("BENCH_KAFKA_CONSUMER"),
        producer_extra_config=client_config("BENCH_KAFKA_PRODUCER"),
        # The bench creates the topics; a stateless pipeline needs no changelog or
        # repartition topics, and with this off quixstreams creates nothing on the broker.
        auto_create_topics=False,
        state_dir=os.path.join(os.getcwd(), "quix-state"),
        on_consumer_error=skips.on_consumer_error,
        on_processing_error=skips.on_processing_error,
    )
    logging.getLogger("quixstreams.app").addFilter(ReadyOnStart())
    show_client_configs()

    input_topic = app.topic(os.environ["BENCH_INPUT_TOPIC"], value_deserializer="json")
    output_topic = app.topic(os.environ["BENCH_OUTPUT_TOPIC"], value_serializer="json")
    app.dataframe(input_topic).apply(score).to_topic(output_topic)
    app.run()  # returns after SIGTERM, once the last checkpoint is committed


if __name__ == "__main__":
    main()
