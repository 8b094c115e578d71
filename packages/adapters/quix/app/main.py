"""Quix Streams scoring app: one StreamingDataFrame, one eager PyTorch forward per record.

quixstreams hands the pipeline one record at a time and has no batching primitive, so the
forward is per record: that is the framework's shape. The message key (the record's
partition_key) is carried through to the output untouched by to_topic().

Settings come from the BENCH_* environment variables the adapter sets; the Kafka client
settings every row shares arrive as BENCH_KAFKA_CONSUMER / BENCH_KAFKA_PRODUCER (JSON).
"""
import logging
import os
import sys

sys.path.insert(0, os.environ["BENCH_MODELS_DIR"])

from quixstreams import Application  # noqa: E402
from quixstreams.models.serializers.exceptions import SerializationError  # noqa: E402

from bench_kit import RecordDecoder, RiskScorer, announce_ready, bench_env, librdkafka_config, output_record, record_problem  # noqa: E402


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


class Skips:
    """quixstreams' error callbacks: a record that cannot be read or scored is skipped (its
    offset is committed with the rest) and counted with the kit's skip line; any other error
    still stops the app."""

    def __init__(self):
        self.decoder = RecordDecoder()

    def on_consumer_error(self, exc, message, _logger):
        # A message the JSON deserializer refused (not JSON, empty, not UTF-8); message is the raw record.
        if message is not None and isinstance(exc, SerializationError):
            self.decoder.skip(message.offset(), f"not JSON: {exc}")
            return True
        return False

    def on_processing_error(self, exc, row, _logger):
        if isinstance(exc, BadRecord) and row is not None:
            self.decoder.skip(row.offset, str(exc))
            return True
        return False


class ReadyOnStart(logging.Filter):
    """Prints BENCH_READY when quixstreams reports it has subscribed and is polling."""

    def filter(self, record):
        if record.getMessage().startswith("The application started"):
            announce_ready()
        return True


def run_transactional_id(bench):
    """Under exactly-once, the run's transactional.id, which Quix takes when given one. Its own is a
    new random id per start: a killed instance's open transaction would then hold read-committed
    readers back until transaction.timeout.ms (60 s) ends it, where the run's id lets the restarted
    instance fence it at once, as Kafka Streams' and Flink's stable ids do."""
    return {"transactional.id": bench.transactional_id} if bench.exactly_once else {}


def main():
    scorer = RiskScorer()
    skips = Skips()

    def score(row):
        problem = record_problem(row)
        if problem is not None:
            raise BadRecord(problem)
        return output_record(row, scorer.risks([row])[0])

    bench = bench_env()
    app = Application(
        broker_address=bench.bootstrap,
        consumer_group=bench.group_id,
        auto_offset_reset="earliest",
        # Checkpoint every second (flush the producer, then commit the consumed offsets; under
        # exactly-once, commit the checkpoint's transaction with its offsets): the runner reads
        # consumed/s from the committed offset, under either guarantee.
        commit_interval=1.0,
        processing_guarantee=bench.guarantee,
        consumer_extra_config=librdkafka_config("consumer"),
        producer_extra_config={**librdkafka_config("producer"), **run_transactional_id(bench)},
        # The bench creates the topics; a stateless pipeline needs no changelog or
        # repartition topics, and with this off quixstreams creates nothing on the broker.
        auto_create_topics=False,
        state_dir=os.path.join(os.getcwd(), "quix-state"),
        on_consumer_error=skips.on_consumer_error,
        on_processing_error=skips.on_processing_error,
    )
    logging.getLogger("quixstreams.app").addFilter(ReadyOnStart())
    show_client_configs()

    input_topic = app.topic(bench.input_topic, value_deserializer="json")
    output_topic = app.topic(bench.output_topic, value_serializer="json")
    app.dataframe(input_topic).apply(score).to_topic(output_topic)
    app.run()  # returns after SIGTERM, once the last checkpoint is committed


if __name__ == "__main__":
    main()
