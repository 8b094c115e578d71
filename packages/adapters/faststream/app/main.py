"""FastStream row: score every record with the frozen risk model and republish it.

One batch subscriber on aiokafka. FastStream decodes each record in full with its orjson codec
(orjson is installed, so the framework uses it); the handler normalises the four features,
runs ONE eager PyTorch forward for the batch, then publishes one message per record.
At-least-once: AckPolicy.ACK commits the consumer's position after the handler returns, that
is after every output of the batch has been handed to the producer (fire-and-forget, as in the
seed: no wait for each broker ack). Settings come from BENCH_* environment variables; the Kafka
client settings every row shares arrive as BENCH_KAFKA_CONSUMER / BENCH_KAFKA_PRODUCER (JSON,
librdkafka's names) and are handed to aiokafka under its own names.
"""
import asyncio
import logging
import os
import sys
from typing import Any

import orjson
import torch
from faststream import AckPolicy, FastStream
from faststream.kafka import KafkaBroker

sys.path.insert(0, os.environ["BENCH_MODELS_DIR"])
from bench_kit import announce_ready, bench_env, is_complete, metrics_of, output_record, renamed_settings  # noqa: E402
from risk_model import load_torch_model, normalise  # noqa: E402

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

# The network is tiny: intra-op threads only add wake-ups. The row is one async consumer.
torch.set_num_threads(1)
model = load_torch_model()

broker = KafkaBroker(
    BENCH.bootstrap,
    **PRODUCER_SETTINGS,
    # FastStream logs every handler call at this level; keep that per-batch access log out
    # of the measured loop (startup and errors still log).
    log_level=logging.DEBUG,
)
app = FastStream(broker)
output = broker.publisher(BENCH.output_topic)
skipped = 0


async def decode_valid(message: Any) -> list[dict[str, Any]]:
    """The subscriber's decoder: decodes the batch one record at a time and leaves out (and
    counts) a record that is not a complete telemetry record. FastStream's own batch decoding
    hands the handler's type check the whole batch, so one bad record failed every record of
    it, and AckPolicy.ACK then committed the lot."""
    global skipped
    records = []
    for raw in message.raw_message:
        try:
            record = orjson.loads(raw.value or b"")
        except orjson.JSONDecodeError:
            record = None
        if is_complete(record):
            records.append(record)
        else:
            skipped += 1
            print(f"skipped record at offset {raw.offset}: malformed (skipped {skipped})", file=sys.stderr, flush=True)
    return records


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
    if not records:
        return
    features = [normalise(*metrics_of(r)) for r in records]
    with torch.no_grad():
        risks = model(torch.tensor(features, dtype=torch.float32)).squeeze(1).tolist()
    for record, risk in zip(records, risks):
        key = record.get("partition_key")
        await output.publish(
            orjson.dumps(output_record(record, risk)),
            key=key.encode() if isinstance(key, str) else None,
            no_confirm=True,
        )


@app.after_startup
async def ready() -> None:
    announce_ready()


if __name__ == "__main__":
    asyncio.run(app.run())
