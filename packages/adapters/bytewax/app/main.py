"""Bytewax scoring app: one dataflow, one worker, one eager PyTorch forward per batch.

    KafkaSource (the run's one input partition, up to BATCH_SIZE records per poll)
      -> flat_map_batch "score": orjson.loads every record, skip and count the ones that cannot
         be scored, ONE forward for the rest of the batch
      -> KafkaSink (keyed by the record's partition_key)

Run as Bytewax's own CLI runs a dataflow (the adapter starts it):
    python -m bytewax.run /path/to/main.py:build_flow() -w 1 -r STATE/recovery -s 1 -b 0

Delivery: Bytewax keeps no consumer group. KafkaSource's position is part of the recovery
snapshot (SQLite partitions in the recovery directory, one snapshot a second); KafkaSink flushes
its producer after every batch it writes, so a restart resumes from the last snapshot and
replays what came after it (duplicates, at-least-once).

Consumed: with no group to read, the app writes the highest input offset + 1 it has scored to
STATE/consumed at most once a second from the source's poll loop (written whole, then renamed
over the old one); the runner reads that file as the row's engine counter.

Stop: SIGTERM ends the input at the source's next poll; Bytewax then finishes as on a finite
input (a last snapshot, the sink flushed and closed) and the process exits 0.

Settings come from the BENCH_* environment variables the adapter sets; the Kafka client settings
every row shares arrive as BENCH_KAFKA_CONSUMER / BENCH_KAFKA_PRODUCER (JSON, librdkafka's
names) and go to confluent-kafka as they are, through the connectors' add_config.
"""
import atexit
import os
import signal
import sys
import threading
from pathlib import Path

sys.path.insert(0, os.environ["BENCH_MODELS_DIR"])

import orjson  # noqa: E402
from bytewax import operators as op  # noqa: E402
from bytewax.connectors.kafka import KafkaSink, KafkaSinkMessage, KafkaSource  # noqa: E402
from bytewax.dataflow import Dataflow  # noqa: E402
from bytewax.inputs import StatefulSourcePartition  # noqa: E402

from bench_kit import ConsumedCounter, RecordDecoder, RiskScorer, announce_ready, bench_env, librdkafka_config, output_record, stop_event  # noqa: E402

# Records per poll of the source, so at most per forward. KafkaSource's default is 1,000; this
# matches FastStream's batch bound (10k).
BATCH_SIZE = int(os.environ.get("BENCH_BYTEWAX_BATCH_SIZE", "10000"))
# Where the adapter keeps this consumer's state: the recovery partitions and the counter file.
STATE_DIR = Path(os.environ["BENCH_BYTEWAX_STATE_DIR"])
COUNTER_FILE = STATE_DIR / "consumed"


class StoppablePartition(StatefulSourcePartition):
    """The Kafka partition as KafkaSource builds it, ended at the next poll once `stopping` is
    set: the input then reaches its end, Bytewax takes its end-of-input snapshot, the sink
    flushes and closes and the run returns (exit 0), as on a finite input. Each poll also
    gives the counter its chance to write."""

    def __init__(self, inner, stopping: threading.Event, counter: ConsumedCounter):
        self._inner = inner
        self._stopping = stopping
        self._counter = counter

    def next_batch(self):
        self._counter.write_when_due()
        if self._stopping.is_set():
            raise StopIteration()
        return self._inner.next_batch()

    def next_awake(self):
        return self._inner.next_awake()

    def snapshot(self):
        return self._inner.snapshot()

    def close(self):
        self._inner.close()


class BenchKafkaSource(KafkaSource):
    """KafkaSource whose partition stops on SIGTERM and prints the ready line once its consumer
    is assigned. Bytewax builds the partition with the offset it resumes from (read from the
    recovery store): every record before it was scored by an earlier run, so the counter
    starts there."""

    def __init__(self, *args, stopping: threading.Event, counter: ConsumedCounter, **kwargs):
        super().__init__(*args, **kwargs)
        self._stopping = stopping
        self._counter = counter

    def build_part(self, step_id, for_part, resume_state):
        part = StoppablePartition(super().build_part(step_id, for_part, resume_state), self._stopping, self._counter)
        if resume_state is not None:
            self._counter.advance(resume_state)
        announce_ready(f"partition {for_part} from offset {'start' if resume_state is None else resume_state}")
        return part


class Scorer:
    """The batch step: decode, ONE forward, encode. Each stage is a method of its own so a
    profile names it."""

    def __init__(self, scorer: RiskScorer, counter: ConsumedCounter):
        self.scorer = scorer
        self.counter = counter
        self.decoder = RecordDecoder(orjson.loads)

    def decode(self, messages):
        """Every record parsed in full; the kit's decoder skips and counts one it cannot score."""
        records = (self.decoder.decode(msg.value, msg.offset) for msg in messages)
        return [record for record in records if record is not None]

    @staticmethod
    def encode(records, risks):
        """One output message per record, keyed by its partition_key when it has one."""
        out = []
        for record, risk in zip(records, risks):
            key = record.get("partition_key")
            out.append(KafkaSinkMessage(key.encode() if isinstance(key, str) else None, orjson.dumps(output_record(record, risk))))
        return out

    def __call__(self, messages):
        records = self.decode(messages)
        outputs = self.encode(records, self.scorer.risks(records))
        if messages:
            self.counter.advance(messages[-1].offset + 1)
        return outputs


def build_flow():
    bench = bench_env()
    scorer = RiskScorer()
    counter = ConsumedCounter(COUNTER_FILE)
    atexit.register(counter.write)
    # The runner stops the app with SIGTERM. Python's default would end the process at once and
    # a KeyboardInterrupt raised inside a step fails the dataflow with an error: instead the
    # source ends its input at its next poll (see StoppablePartition).
    stopping = stop_event(signals=(signal.SIGTERM,))

    flow = Dataflow("bench-score")
    # raise_on_errors (the default): a consumer error stops the dataflow rather than being
    # passed on as a record; malformed records are no consumer error and are skipped in score.
    source = BenchKafkaSource(
        [bench.bootstrap], [bench.input_topic], batch_size=BATCH_SIZE, add_config=librdkafka_config("consumer"), stopping=stopping, counter=counter
    )
    scored = op.flat_map_batch("score", op.input("in", flow, source), Scorer(scorer, counter))
    op.output("out", scored, KafkaSink([bench.bootstrap], bench.output_topic, add_config=librdkafka_config("producer")))
    return flow
