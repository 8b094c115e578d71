"""What every Python app of the bench shares, written once: its settings, the Kafka client
settings every row uses, the rule for a record it can score and the skip line for one it cannot,
the scoring model, the output record, the counter file, the stop signal and the ready line.

The runner hands each app its settings as BENCH_* environment variables (core's benchAppEnv)
and the shared Kafka client settings as BENCH_KAFKA_CONSUMER / BENCH_KAFKA_PRODUCER, JSON with
librdkafka's names (core's KAFKA_SETTINGS). Apps put this folder on sys.path (BENCH_MODELS_DIR),
as they do for risk_model; each app keeps only its framework's code.
"""
import json
import math
import os
import signal
import sys
import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Optional

from risk_model import MAXIMA, METRICS, load_torch_model

if TYPE_CHECKING:  # torch is imported where it is used: apps that do not score need not have it
    import torch


@dataclass(frozen=True)
class BenchEnv:
    """The run's broker, topics, group and guarantee, and how many cores the app may use."""

    bootstrap: str
    input_topic: str
    output_topic: str
    group_id: str
    parallelism: int
    models_dir: str
    # "at-least-once" or "exactly-once"; under exactly-once, the id the app's transactional producer
    # registers with (the same for every start of one run, so a restart fences the killed one).
    guarantee: str = "at-least-once"
    transactional_id: Optional[str] = None
    # Served: the gRPC address of the model server the app calls instead of its own model.
    model_server: Optional[str] = None

    @property
    def exactly_once(self) -> bool:
        return self.guarantee == "exactly-once"


def bench_env(environ: Mapping[str, str] = os.environ) -> BenchEnv:
    return BenchEnv(
        bootstrap=environ["BENCH_BOOTSTRAP"],
        input_topic=environ["BENCH_INPUT_TOPIC"],
        output_topic=environ["BENCH_OUTPUT_TOPIC"],
        group_id=environ["BENCH_GROUP_ID"],
        parallelism=int(environ.get("BENCH_PARALLELISM", "1")),
        models_dir=environ["BENCH_MODELS_DIR"],
        guarantee=environ.get("BENCH_GUARANTEE", "at-least-once"),
        transactional_id=environ.get("BENCH_TRANSACTIONAL_ID"),
        model_server=environ.get("BENCH_MODEL_SERVER") or None,
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


def settings_as_text(settings: Mapping[str, Any]) -> dict:
    """Settings as the text a configuration file would hold, for clients that take strings only
    (librdkafka's and the Java client's parsers read true/false, not Python's True/False)."""
    return {key: str(value).lower() if isinstance(value, bool) else str(value) for key, value in settings.items()}


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
        if not is_finite_number(value):
            return f"{name} is not a finite number: {value!r}"
    return None


def is_finite_number(value: Any) -> bool:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:  # an integer beyond float's range: json (not orjson) decodes one
        return False


def metrics_of(record: Mapping[str, Any]) -> tuple:
    """The model's four inputs, in the order risk_model.normalise takes them."""
    return tuple(record[name] for name in METRICS)


class RecordDecoder:
    """Decodes a record's value and checks it; a record that cannot be scored is skipped and
    counted, with one line on stderr: `skipped record at offset N: <reason> (skipped K)`.
    Thread-safe: some engines run the decoding step on several threads."""

    def __init__(self, loads: Callable[[Any], Any] = json.loads):
        self.loads = loads
        self.skipped = 0
        self._lock = threading.Lock()

    def decode(self, value: Optional[bytes], offset: int) -> Optional[dict]:
        """The record when it can be scored; otherwise None, after the skip line."""
        try:
            record = self.loads(value if value is not None else b"")
        except (TypeError, ValueError) as error:  # not UTF-8 or not JSON: both are ValueErrors
            problem = f"not JSON: {error}"
        else:
            problem = record_problem(record)
        if problem is None:
            return record
        self.skip(offset, problem)
        return None

    def skip(self, offset: int, reason: str) -> None:
        # One write of the whole line, under the lock: print() writes the text and the newline
        # separately, and two worker threads (pathway's threads=2) interleaved them into one line.
        with self._lock:
            self.skipped += 1
            sys.stderr.write(f"skipped record at offset {offset}: {reason} (skipped {self.skipped})\n")
            sys.stderr.flush()


class RiskScorer:
    """The frozen model, set up once per process: torch on one intra-op thread (the network is
    tiny, more threads only add wake-ups), the weights loaded and checked against the card's
    probe rows. Each call runs under no_grad itself, since grad mode is per thread and engines
    call it from threads of their own."""

    def __init__(self):
        import torch

        torch.set_num_threads(1)
        self.model = load_torch_model()
        self.maxima = torch.tensor([MAXIMA[name] for name in METRICS], dtype=torch.float64)

    def features(self, metrics) -> "torch.Tensor":
        """clip(value / maximum, 0, 1) in float64, then float32, as risk_model.normalise: one
        tensor operation for a batch of [latency_ms, queue_depth, cpu_usage, error_count] rows."""
        import torch

        return (torch.as_tensor(metrics, dtype=torch.float64) / self.maxima).clamp_(0.0, 1.0).to(torch.float32)

    def risks_of_metrics(self, metrics) -> "torch.Tensor":
        """ONE forward for a batch of metric rows (a sequence, an array or a float64 tensor)."""
        import torch

        with torch.no_grad():
            return self.model(self.features(metrics)).squeeze(1)

    def risks(self, records: Iterable[Mapping[str, Any]]) -> list:
        """The risk of each complete record, in order: one forward for the batch."""
        rows = [metrics_of(record) for record in records]
        return self.risks_of_metrics(rows).tolist() if rows else []


def scorer_for(bench: BenchEnv, stopping: Callable[[], bool] = lambda: False):
    """The app's model: its own (RiskScorer) embedded, or the model server's (served_client's
    ServedScorer, checked against the card's probe rows) when the run gives one."""
    if bench.model_server is None:
        return RiskScorer()
    from served_client import ServedScorer

    scorer = ServedScorer(bench.model_server, stopping)
    scorer.check()
    return scorer


def output_record(record: Mapping[str, Any], risk: float) -> dict:
    """What every row republishes for a scored record."""
    return {"event_id": record["event_id"], "ts_ms": record["ts_ms"], "risk": float(risk)}


def write_atomically(path: str, text: str) -> None:
    """Writes a file the runner reads while the app runs: whole, then renamed over the old one,
    so a reader sees the old text or the new, never half a file."""
    tmp = f"{path}.tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


class ConsumedCounter:
    """The engine counter of a row whose engine commits no consumer group: the next input offset
    the app has gone through, written to a file (one whole number, core's counterFile reads it)
    at most once per interval. Nothing is written before the app has a position, so a restart
    never shows 0. Thread-safe."""

    def __init__(self, path: str, interval_s: float = 1.0):
        self.path = str(path)
        self.interval_s = interval_s
        self.position = 0
        self._written = 0
        self._due = 0.0
        self._lock = threading.Lock()

    def advance(self, next_offset: int) -> None:
        with self._lock:
            self.position = max(self.position, next_offset)

    def write(self) -> None:
        with self._lock:
            position = self.position
            if position == self._written:
                return
            write_atomically(self.path, f"{position}\n")
            self._written = position

    def write_when_due(self) -> None:
        """For an engine loop that comes back often anyway: writes when an interval has passed."""
        now = time.monotonic()
        if now >= self._due:
            self._due = now + self.interval_s
            self.write()

    def keep_written(self) -> threading.Thread:
        """For an engine that calls the app only when records come: a daemon thread writes it."""

        def loop() -> None:
            while True:
                self.write()
                time.sleep(self.interval_s)

        thread = threading.Thread(target=loop, name="bench-counter", daemon=True)
        thread.start()
        return thread


def stop_event(signals=(signal.SIGTERM, signal.SIGINT), on_stop: Callable[[], None] = lambda: None) -> threading.Event:
    """Set when the runner stops the app (SIGTERM; SIGINT by hand), so the app ends its loop
    at a point of its choosing instead of being interrupted anywhere. Call from the main thread
    (Python installs signal handlers there only)."""
    stopping = threading.Event()

    def request(_signum, _frame) -> None:
        on_stop()
        stopping.set()

    for signum in signals:
        signal.signal(signum, request)
    return stopping


def announce_ready(detail: str = "") -> None:
    """The line the runner waits for: the app is consuming."""
    print("BENCH_READY" + (f" {detail}" if detail else ""), flush=True)
