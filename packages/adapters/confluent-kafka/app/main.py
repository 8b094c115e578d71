"""The plain confluent-kafka row: a consume-score-produce loop with no framework around it.

The floor under every Python row: what Python, librdkafka (through confluent-kafka) and the
model cost anyway. Each turn of the loop:

1. Consumer.consume() takes a batch: up to BATCH records, or what arrived within BATCH_WAIT_S
   (librdkafka's batch call waits for a full batch or the timeout, whichever comes first).
2. Every record is decoded whole with orjson (the JSON library the other Python rows use, so
   "what the framework adds" is not a JSON library's difference) and checked with the kit's
   record_problem; a record that cannot be scored is skipped, counted and logged.
3. ONE eager PyTorch forward for the batch (torch limited to one thread, as every Python row).
4. Producer.produce() per output, keyed by the record's partition_key.
5. At-least-once: producer.flush() waits until the broker has acknowledged every output of the
   batch (acks=all, idempotent), a failed delivery stops the app before anything is committed,
   and only then does consumer.commit(asynchronous=False) commit the batch's offsets. A kill -9
   at any point replays the uncommitted batch: duplicates, never a loss.

Settings come from the BENCH_* environment variables the adapter sets; the Kafka client
settings every row shares arrive as BENCH_KAFKA_CONSUMER / BENCH_KAFKA_PRODUCER (JSON, librdkafka's
names) and are spread into the clients' configurations as they are.
"""
import os
import signal
import sys

sys.path.insert(0, os.environ["BENCH_MODELS_DIR"])

import orjson  # noqa: E402
import torch  # noqa: E402
from confluent_kafka import Consumer, KafkaException, Producer  # noqa: E402

from bench_kit import announce_ready, bench_env, librdkafka_config, metrics_of, output_record, record_problem  # noqa: E402
from risk_model import load_torch_model, normalise  # noqa: E402

# Records per consume() call: the same cap as the faststream row's batches.
BATCH = 10_000
# How long consume() waits for a batch to fill: bounds latency at low rates (and keeps the
# group's committed offset, which the runner reads as consumed/s, moving several times a second).
BATCH_WAIT_S = 0.1


class Stop:
    """SIGTERM (the runner's stop) ends the loop after the batch in hand is delivered and committed."""

    def __init__(self):
        self.requested = False
        signal.signal(signal.SIGTERM, self._request)
        signal.signal(signal.SIGINT, self._request)

    def _request(self, _signum, _frame):
        self.requested = True


class Deliveries:
    """The producer's delivery reports: the first failure is kept so the batch is never committed."""

    def __init__(self, producer):
        self.producer = producer
        self.failed = None

    def report(self, err, msg):
        if err is not None and self.failed is None:
            self.failed = f"delivery to {msg.topic()} failed: {err}"

    def wait(self):
        """Returns once the broker has acknowledged every output produced so far (flush serves
        the delivery reports); raises if one failed, so that batch is never committed."""
        self.producer.flush()
        if self.failed is not None:
            raise RuntimeError(f"{self.failed}; the batch is not committed and will be read again")


class Skips:
    """How many records were skipped so far (each is logged with its offset)."""

    def __init__(self):
        self.count = 0


def decode(messages, skips):
    """The records of a batch that can be scored; every other one is skipped, counted and logged."""
    records = []
    for msg in messages:
        if msg.error() is not None:
            # Not a record: a client event (e.g. a transient broker error). A fatal one ends the app.
            if msg.error().fatal():
                raise KafkaException(msg.error())
            print(f"consumer event: {msg.error()}", file=sys.stderr, flush=True)
            continue
        try:
            record = orjson.loads(msg.value() or b"")
            problem = record_problem(record)
        except orjson.JSONDecodeError as error:
            problem = f"not JSON: {error}"
        if problem is None:
            records.append(record)
        else:
            skips.count += 1
            print(f"skipped record at offset {msg.offset()}: {problem} (skipped {skips.count})", file=sys.stderr, flush=True)
    return records


def score(model, records):
    """One forward for the whole batch: the risks in the records' order."""
    features = torch.tensor([normalise(*metrics_of(record)) for record in records], dtype=torch.float32)
    with torch.no_grad():
        return model(features).squeeze(1).tolist()


def encode(record, risk):
    """The output record's bytes."""
    return orjson.dumps(output_record(record, risk))


def publish(producer, topic, records, risks, on_delivery):
    """One produce() per output, keyed by the record's partition_key. A batch (<= 10k records)
    stays under the producer's 100k-message queue, so produce() never raises BufferError here."""
    for record, risk in zip(records, risks):
        key = record.get("partition_key")
        producer.produce(topic, encode(record, risk), key if isinstance(key, str) else None, on_delivery=on_delivery)


def main():
    model = load_torch_model()
    # The network is tiny: intra-op threads would only add wake-ups. One thread, as every Python row.
    torch.set_num_threads(1)

    bench = bench_env()
    consumer = Consumer({
        **librdkafka_config("consumer"),
        "bootstrap.servers": bench.bootstrap,
        "group.id": bench.group_id,
        "auto.offset.reset": "earliest",
        # Offsets are committed by hand, after the batch's outputs are delivered.
        "enable.auto.commit": False,
    })
    producer = Producer({**librdkafka_config("producer"), "bootstrap.servers": bench.bootstrap})
    deliveries = Deliveries(producer)
    stop = Stop()
    skipped = Skips()
    consumer.subscribe([bench.input_topic])
    announce_ready(f"confluent-kafka consuming {bench.input_topic}")

    try:
        while not stop.requested:
            messages = consumer.consume(num_messages=BATCH, timeout=BATCH_WAIT_S)
            if not messages:
                continue
            records = decode(messages, skipped)
            risks = score(model, records) if records else []
            publish(producer, bench.output_topic, records, risks, deliveries.report)
            deliveries.wait()
            # Every message of the batch, skipped ones included, is done: commit the consumer's position.
            consumer.commit(asynchronous=False)
    finally:
        producer.flush()
        consumer.close()


if __name__ == "__main__":
    main()
