"""FastStream row: score every record with the frozen risk model and republish it.

One batch subscriber on aiokafka. FastStream decodes each record in full with its orjson codec
(orjson is installed, so the framework uses it); the handler normalises the four features,
runs ONE eager PyTorch forward for the batch, then publishes one message per record.
At-least-once: AckPolicy.ACK commits the consumer's position after the handler returns, and the
handler returns once the broker has acknowledged every output of the batch (each publish is handed
to aiokafka without a wait, then the batch's acks are awaited together), so a kill can replay a
batch but never commit one whose outputs were still in the producer. Settings come from BENCH_* environment variables; the Kafka
client settings every row shares arrive as BENCH_KAFKA_CONSUMER / BENCH_KAFKA_PRODUCER (JSON,
librdkafka's names) and are handed to aiokafka under its own names.
"""
import asyncio
import logging
import os
import sys
from typing import Any

import orjson
from faststream import AckPolicy, FastStream
from faststream.kafka import KafkaBroker

sys.path.insert(0, os.environ["BENCH_MODELS_DIR"])
from bench_kit import RecordDecoder, RiskScorer, announce_ready, bench_env, output_record, renamed_settings  # noqa: E402

BENCH = bench_env()
# Records per handler call. Bounds a batch to well under a second of work, so the group's
# offset (what the runner reads as consumed/s) moves at least once a second.
MAX_RECORDS = int(os.environ.get("BENCH_FASTSTREAM_MAX_RECORDS", "10000"))

# librdkafka's names -> aiokafka's. The prefetch-queue knobs (queued.*) have no aiokafka
# equivalent: a deviation the row states.
CONSUMER_SETTINGS = renamed_settings("consumer", {
    "fetch.min.bytes": "fetch_min_bytes",
    "fetch.wait.max.ms": "fetch_max_wait_ms",
    "max.partition.fetch.bytes": "max_partition_fetch_bytes",
})
PRODUCER_SETTINGS = renamed_settings("producer", {
    "acks": "acks",
    "enable.idempotence": "enable_idempotence",
    "compression.type": "compression_type",
    "linger.ms": "linger_ms",
})
# aiokafka has no configuration dump: the log shows what it was handed.
print("BENCH_KAFKA_SETTINGS " + orjson.dumps({"consumer": CONSUMER_SETTINGS, "producer": PRODUCER_SETTINGS}).decode(), flush=True)

scorer = RiskScorer()

broker = KafkaBroker(
    BENCH.bootstrap,
    **PRODUCER_SETTINGS,
    # FastStream logs every handler call at this level; keep that per-batch access log out
    # of the measured loop (startup and errors still log).
    log_level=logging.DEBUG,
)
app = FastStream(broker)
output = broker.publisher(BENCH.output_topic)
record_decoder = RecordDecoder(orjson.loads)


async def decode_valid(message: Any) -> list[dict[str, Any]]:
    """The subscriber's decoder: decodes the batch one record at a time and leaves out (and
    counts) a record that is not a complete telemetry record. FastStream's own batch decoding
    would hand the handler's type check the whole batch, so one bad record would fail every
    record of it, and AckPolicy.ACK would then commit the lot."""
    records = (record_decoder.decode(raw.value, raw.offset) for raw in message.raw_message)
    return [record for record in records if record is not None]


@broker.subscriber(
    BENCH.input_topic,
    batch=True,
    max_records=MAX_RECORDS,
    group_id=BENCH.group_id,
    auto_offset_reset="earliest",
    ack_policy=AckPolicy.ACK,
    **CONSUMER_SETTINGS,
    decoder=decode_valid,
)
async def score(records: list[dict[str, Any]]) -> None:
    acks = []
    for record, risk in zip(records, scorer.risks(records)):
        key = record.get("partition_key")
        acks.append(await output.publish(
            orjson.dumps(output_record(record, risk)),
            key=key.encode() if isinstance(key, str) else None,
            no_confirm=True,
        ))
    # no_confirm returns each send's future; AckPolicy.ACK commits when this returns.
    await asyncio.gather(*acks)


@app.after_startup
async def ready() -> None:
    announce_ready()


if __name__ == "__main__":
    asyncio.run(app.run())
