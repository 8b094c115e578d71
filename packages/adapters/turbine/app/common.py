"""What both Turbine rows share: settings, the projected input schema, the app and its topics.

Names used from turbine-fast 0.3.0a1 (turbine/__init__.py, brokers.py, app.py): KafkaBroker
(bootstrap=), KafkaBroker.topic(name, schema=, message_key=), Turbine(broker, app_id=,
state_dir=, from_earliest=, api_port=, api_host=), Turbine.subscribe(input, output=, name=,
partition_key=, parallelism=, processing_guarantee=, infer=), Turbine.run().

Schema projection: the input topic is declared with a pydantic model of the 7 fields the rows
use (of the record's 19), so Turbine's Rust decoder builds Arrow columns for those and skips
the rest. Settings come from BENCH_* environment variables.
"""
import os
import sys
import threading
import time
import urllib.request

from pydantic import BaseModel
from turbine import KafkaBroker, Turbine

sys.path.insert(0, os.environ["BENCH_MODELS_DIR"])
from bench_kit import announce_ready, bench_env  # noqa: E402

BENCH = bench_env()
BOOTSTRAP = BENCH.bootstrap
INPUT_TOPIC = BENCH.input_topic
OUTPUT_TOPIC = BENCH.output_topic
GROUP_ID = BENCH.group_id
PARALLELISM = BENCH.parallelism
MODELS_DIR = BENCH.models_dir
STATE_DIR = os.environ["BENCH_TURBINE_STATE_DIR"]
API_PORT = int(os.environ["BENCH_TURBINE_API_PORT"])
# Names the consumer group turbine-<app_id>-<topic>-<name>; the adapter reads that group's offset.
SUBSCRIPTION = "score"


class Projected(BaseModel):
    """The decode schema: 7 of 19 fields. Metrics as float: JSON integers decode into Float64."""

    event_id: str
    ts_ms: int
    partition_key: str
    latency_ms: float
    queue_depth: float
    cpu_usage: float
    error_count: float


kafka = KafkaBroker(bootstrap=BOOTSTRAP)
# from_earliest: the run's group is new, and records may be produced before the first poll.
app = Turbine(kafka, app_id=GROUP_ID, state_dir=STATE_DIR, from_earliest=True, api_port=API_PORT, api_host="127.0.0.1")
# on_error="skip" (turbine-fast's deserialization-error policy on the input topic): a payload
# that does not decode into the schema is dropped, counted on turbine_dlq_messages_total and its
# offset advanced, instead of the default "fail" stopping the worker. The handler's own errors
# keep "fail": a bug must not be mistaken for bad data.
source = kafka.topic(INPUT_TOPIC, schema=Projected, on_error="skip")
sink = kafka.topic(OUTPUT_TOPIC, message_key="partition_key")


def subscribe_options(parallelism: int = PARALLELISM) -> dict:
    """One partition, at-least-once; intra-partition shards on partition_key when parallelism > 1.

    At parallelism 1 partition_key=None is passed, not omitted: subscribe() treats an omitted
    partition_key as "not provided" and warns at run(); None says unkeyed on purpose (the
    handler keeps no state, so there is nothing to rescale).
    """
    return {
        "name": SUBSCRIPTION,
        "processing_guarantee": "at_least_once",
        "parallelism": parallelism,
        "partition_key": "partition_key" if parallelism > 1 else None,
        "on_processing_error": "fail",
    }


def announce_ready_when_consuming() -> None:
    """Prints the ready line from a thread of its own once Turbine's /ready answers 200, that is
    once the node is consuming; app.run() blocks the main thread, so it cannot wait there."""

    def poll() -> None:
        url = f"http://127.0.0.1:{API_PORT}/ready"
        while True:
            try:
                with urllib.request.urlopen(url, timeout=2) as response:
                    if response.status == 200:
                        announce_ready()
                        return
            except OSError:
                pass
            time.sleep(0.2)

    threading.Thread(target=poll, name="bench-ready", daemon=True).start()
