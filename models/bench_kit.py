"""What every Python app of the bench shares, written once: its settings, the Kafka client
settings every row uses, the rule for a record it can score, the output record and the ready line.

The runner hands each app its settings as BENCH_* environment variables (core's benchAppEnv)
and the shared Kafka client settings as BENCH_KAFKA_CONSUMER / BENCH_KAFKA_PRODUCER, JSON with
librdkafka's names (core's KAFKA_SETTINGS). Apps put this folder on sys.path (BENCH_MODELS_DIR),
as they do for risk_model; each app keeps only its framework's code.
"""
import json
import math
import os
from dataclasses import dataclass
from typing import Any, Mapping, Optional

METRICS = ("latency_ms", "queue_depth", "cpu_usage", "error_count")


@dataclass(frozen=True)
class BenchEnv:
    """The run's broker, topics and group, and how many cores the app may use."""

    bootstrap: str
    input_topic: str
    output_topic: str
    group_id: str
    parallelism: int
    models_dir: str


def bench_env(environ: Mapping[str, str] = os.environ) -> BenchEnv:
    return BenchEnv(
        bootstrap=environ["BENCH_BOOTSTRAP"],
        input_topic=environ["BENCH_INPUT_TOPIC"],
        output_topic=environ["BENCH_OUTPUT_TOPIC"],
        group_id=environ["BENCH_GROUP_ID"],
        parallelism=int(environ.get("BENCH_PARALLELISM", "1")),
        models_dir=environ["BENCH_MODELS_DIR"],
    )


def kafka_settings(kind: str, environ: Mapping[str, str] = os.environ) -> dict:
    """The shared client settings ("consumer" or "producer"), under librdkafka's names."""
    return json.loads(environ[f"BENCH_KAFKA_{kind.upper()}"])


def librdkafka_config(kind: str, environ: Mapping[str, str] = os.environ) -> dict:
    """The shared settings plus debug=conf: librdkafka logs each client's effective configuration
    once, at creation, so the run's log shows what the clients really run with."""
    return {**kafka_settings(kind, environ), "debug": "conf"}


def renamed_settings(kind: str, names: Mapping[str, str], environ: Mapping[str, str] = os.environ) -> dict:
    """The shared settings under another client's names; a setting with no equivalent in `names`
    is left out (the row states it as a deviation)."""
    return {names[key]: value for key, value in kafka_settings(kind, environ).items() if key in names}


def record_problem(record: Any) -> Optional[str]:
    """Why a decoded record cannot be scored, or None for a complete telemetry record: a JSON
    object with a string event_id, and finite numbers (not booleans: JSON's true is no number)
    for ts_ms and the four metrics. JSON's 1e999 decodes as infinity, so finiteness is checked."""
    if not isinstance(record, dict):
        return f"not a JSON object: {type(record).__name__}"
    if not isinstance(record.get("event_id"), str):
        return "no event_id string"
    for name in ("ts_ms",) + METRICS:
        value = record.get(name)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            return f"{name} is not a finite number: {value!r}"
    return None


def is_complete(record: Any) -> bool:
    return record_problem(record) is None


def metrics_of(record: Mapping[str, Any]) -> tuple:
    """The model's four inputs, in the order risk_model.normalise takes them."""
    return tuple(record[name] for name in METRICS)


def output_record(record: Mapping[str, Any], risk: float) -> dict:
    """What every row republishes for a scored record."""
    return {"event_id": record["event_id"], "ts_ms": record["ts_ms"], "risk": float(risk)}


def announce_ready(detail: str = "") -> None:
    """The line the runner waits for: the app is consuming."""
    print("BENCH_READY" + (f" {detail}" if detail else ""), flush=True)
