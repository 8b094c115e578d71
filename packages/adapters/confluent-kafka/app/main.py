"""The plain confluent-kafka row: a consume-score-produce loop with no framework around it.

The floor under every Python row: what Python, librdkafka (through confluent-kafka) and the
model cost anyway. Each turn of the loop:

1. Consumer.consume() takes a batch: up to BATCH records, or what arrived within BATCH_WAIT_S
   (librdkafka's batch call waits for a full batch or the timeout, whichever comes first).
2. Per record: orjson decodes it whole (the JSON library the other Python rows use, so "what
   the framework adds" is not a JSON library's difference) and the kit's record check judges it;
   a record that cannot be scored is skipped, counted and logged.
3. Per batch: the four features as one tensor operation and ONE eager PyTorch forward (the kit's
   RiskScorer: torch on one thread, as every Python row). Served (BENCH_MODEL_SERVER): the same
   batch as ONE infer call to the model server instead (served_client's ServedScorer), which holds
   the batch through a server outage: nothing is produced or committed before every record of it
   is scored.
4. Per record: the output record encoded with orjson and one Producer.produce(), keyed by the
   record's partition_key, with no callback: the producer reports failed deliveries only
   (delivery.report.only.error), to one callback for the whole producer.
5. At-least-once: producer.flush() returns once the broker has acknowledged every output of the
   batch (acks=all, idempotent) or the delivery failed, a failed delivery stops the app before
   anything is committed, and only then does consumer.commit(asynchronous=False) commit the
   batch's offsets. A kill -9 at any point replays the uncommitted batch: duplicates, never a loss.
   Exactly-once (BENCH_GUARANTEE): the batch's outputs and its offsets are one transaction
   instead (begin, produce, send_offsets_to_transaction, commit_transaction): a read-committed
   reader sees the batch once or, after a kill -9, not at all until it is read again.

Settings come from the BENCH_* environment variables the adapter sets; the Kafka client
settings every row shares arrive as BENCH_KAFKA_CONSUMER / BENCH_KAFKA_PRODUCER (JSON, librdkafka's
names) and are spread into the clients' configurations as they are.
"""
import os
import sys
import threading

sys.path.insert(0, os.environ["BENCH_MODELS_DIR"])

import orjson  # noqa: E402
from confluent_kafka import OFFSET_BEGINNING, Consumer, KafkaException, Producer  # noqa: E402

from bench_kit import RecordDecoder, announce_ready, bench_env, librdkafka_config, output_record, scorer_for, stop_event  # noqa: E402

# Records per consume() call: the same cap as the faststream row's batches.
BATCH = 10_000
# How long consume() waits for a batch to fill: bounds latency at low rates (and keeps the
# group's committed offset, which the runner reads as consumed/s, moving several times a second).
BATCH_WAIT_S = 0.1


class FailedDeliveries:
    """The producer's delivery reports, which librdkafka sends for failures only: the first one is
    kept so the batch is never committed."""

    def __init__(self):
        self.first = None

    def report(self, err, msg):
        if self.first is None:
            self.first = f"delivery to {msg.topic()} failed: {err}"

    def raise_if_any(self):
        if self.first is not None:
            raise RuntimeError(f"{self.first}; the batch is not committed and will be read again")


def decode(messages, decoder):
    """The records of a batch that can be scored; the decoder skips and counts every other one."""
    records = []
    for msg in messages:
        error = msg.error()
        if error is not None:
            # Not a record: a client event (e.g. a transient broker error). A fatal one ends the app.
            if error.fatal():
                raise KafkaException(error)
            print(f"consumer event: {error}", file=sys.stderr, flush=True)
            continue
        record = decoder.decode(msg.value(), msg.offset())
        if record is not None:
            records.append(record)
    return records


def encode(record, risk):
    """The output record's bytes (a function of its own, so a profile names the encoding)."""
    return orjson.dumps(output_record(record, risk))


def publish(producer, topic, records, risks):
    """One produce() per output, keyed by the record's partition_key. A batch (<= 10k records)
    stays under the producer's 100k-message queue, so produce() never raises BufferError here."""
    for record, risk in zip(records, risks):
        key = record.get("partition_key")
        producer.produce(topic, encode(record, risk), key if isinstance(key, str) else None)


# How long one transactional call waits before it is called again: librdkafka lets a call that
# timed out (the coordinator away, say during a broker restart) be repeated, and the broker ends a
# transaction that outlives transaction.timeout.ms (60 s) itself, which the next call then reports.
TXN_CALL_S = 10
# A call still running this long has not honoured its timeout: after every broker went away, a
# coordinator lookup inside librdkafka can wait forever (librdkafka issue 5511). The app then ends,
# so that the bench's restart starts again from the last committed transaction.
STUCK_S = TXN_CALL_S + 20


def stuck_call():
    print(f"a transactional call has not returned in {STUCK_S} s (stuck in librdkafka): exiting", file=sys.stderr, flush=True)
    os._exit(1)


class Transactions:
    """The exactly-once loop's transaction per batch, on a producer whose transactional.id is the
    run's: init_transactions() fences a killed instance of the run and aborts its open transaction."""

    def __init__(self, producer, consumer):
        self.producer = producer
        self.consumer = consumer
        self.call(lambda: producer.init_transactions(TXN_CALL_S))

    def begin(self):
        self.producer.begin_transaction()

    def commit(self):
        """The batch's offsets join its outputs; an abortable failure rewinds to the committed offsets."""
        positions = self.consumer.position(self.consumer.assignment())
        try:
            self.call(lambda: self.producer.send_offsets_to_transaction(positions, self.consumer.consumer_group_metadata(), TXN_CALL_S))
            self.call(lambda: self.producer.commit_transaction(TXN_CALL_S))
        except KafkaException as error:
            if not error.args[0].txn_requires_abort():
                raise
            print(f"transaction aborted, the batch is read again: {error}", file=sys.stderr, flush=True)
            self.call(lambda: self.producer.abort_transaction(TXN_CALL_S))
            self.rewind()

    @staticmethod
    def call(operation):
        """A transactional call, repeated while it fails with a retriable error (a timeout)."""
        while True:
            watchdog = threading.Timer(STUCK_S, stuck_call)
            watchdog.daemon = True
            watchdog.start()
            try:
                return operation()
            except KafkaException as error:
                if not error.args[0].retriable():
                    raise
                print(f"transactional call repeated: {error}", file=sys.stderr, flush=True)
            finally:
                watchdog.cancel()

    def rewind(self):
        for partition in self.consumer.committed(self.consumer.assignment(), timeout=TXN_CALL_S):
            if partition.offset < 0:  # nothing committed yet: the batch was the first
                partition.offset = OFFSET_BEGINNING
            self.consumer.seek(partition)


def clients(bench, failed):
    consumer = Consumer({
        **librdkafka_config("consumer"),
        "bootstrap.servers": bench.bootstrap,
        "group.id": bench.group_id,
        "auto.offset.reset": "earliest",
        # Offsets are committed by hand, after the batch's outputs are delivered.
        "enable.auto.commit": False,
    })
    producer = Producer({
        **librdkafka_config("producer"),
        **({"transactional.id": bench.transactional_id} if bench.exactly_once else {}),
        "bootstrap.servers": bench.bootstrap,
        "delivery.report.only.error": True,
        "on_delivery": failed.report,
    })
    return consumer, producer


def main():
    bench = bench_env()
    stopping = stop_event()
    scorer = scorer_for(bench, stopping.is_set)
    failed = FailedDeliveries()
    consumer, producer = clients(bench, failed)
    decoder = RecordDecoder(orjson.loads)
    consumer.subscribe([bench.input_topic])
    transactions = Transactions(producer, consumer) if bench.exactly_once else None
    served = f" served by {bench.model_server}" if bench.model_server else ""
    announce_ready(f"confluent-kafka consuming {bench.input_topic} {bench.guarantee}{served}")

    try:
        while not stopping.is_set():
            messages = consumer.consume(num_messages=BATCH, timeout=BATCH_WAIT_S)
            if not messages:
                continue
            records = decode(messages, decoder)
            # Scored before a transaction begins: a served call held through a server's outage
            # must not keep a transaction open past the broker's transaction timeout.
            risks = scorer.risks(records)
            if transactions:
                transactions.begin()
            publish(producer, bench.output_topic, records, risks)
            if transactions:
                # commit_transaction() flushes the batch's outputs first and fails if one failed.
                transactions.commit()
                continue
            producer.flush()
            failed.raise_if_any()
            # Every message of the batch, skipped ones included, is done: commit the consumer's position.
            consumer.commit(asynchronous=False)
    finally:
        # At-least-once: what is in flight is delivered before the consumer leaves. Exactly-once:
        # a batch's transaction ends within its turn of the loop, and after a failed one nothing
        # may be flushed (its outputs would never be acknowledged); the next start aborts it.
        if transactions is None:
            producer.flush()
        consumer.close()


if __name__ == "__main__":
    main()
