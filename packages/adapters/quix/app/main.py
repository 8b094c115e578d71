"""Quix Streams scoring app: one StreamingDataFrame, one eager PyTorch forward per record.

quixstreams hands the pipeline one record at a time and has no batching primitive, so the
forward is per record: that is the framework's shape. The message key (the record's
partition_key) is carried through to the output untouched by to_topic().

Settings come from the BENCH_* environment variables the adapter sets; the Kafka client
settings every row shares arrive as BENCH_KAFKA_CONSUMER / BENCH_KAFKA_PRODUCER (JSON).
"""
import json
import logging
import os
import sys

sys.path.insert(0, os.environ["BENCH_MODELS_DIR"])

import torch  # noqa: E402
from quixstreams import Application  # noqa: E402

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

    def score(row):
        features = torch.tensor(
            [normalise(row["latency_ms"], row["queue_depth"], row["cpu_usage"], row["error_count"])],
            dtype=torch.float32,
        )
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
    )
    logging.getLogger("quixstreams.app").addFilter(ReadyOnStart())
    show_client_configs()

    input_topic = app.topic(os.environ["BENCH_INPUT_TOPIC"], value_deserializer="json")
    output_topic = app.topic(os.environ["BENCH_OUTPUT_TOPIC"], value_serializer="json")
    app.dataframe(input_topic).apply(score).to_topic(output_topic)
    app.run()  # returns after SIGTERM, once the last checkpoint is committed


if __name__ == "__main__":
    main()
