"""The served rows' model: the batch a row would score embedded, sent to a model server over the
Open Inference Protocol (KServe v2) on gRPC, with tritonclient's gRPC client (Triton's own, which
speaks v2 to any server that does: the bench's KServe server, Triton, MLServer).

One infer call per batch: the batch's normalised features as one FP32 input of shape [records, 4]
(the card's ONNX input name), the risks back as one FP32 output of shape [records, 1] (the card's
output name). Features are normalised here as RiskScorer does (float64 division, clip to [0, 1],
then float32), so the server gets what the model takes and the row keeps the framework's share.

What the row must never do is commit a record that was not scored:
- the server down (UNAVAILABLE) or slow (DEADLINE_EXCEEDED, past CALL_TIMEOUT_S): the call is
  repeated, one line logged per outage, while the app holds the batch and commits nothing; a server
  still not answering after OUTAGE_LIMIT_S ends the app with the reason (the bench restarts it,
  and the uncommitted batch is read again);
- a wrong answer (another output, shape or type, or the server refusing the request): a clear
  error that ends the app, before anything of the batch is produced or committed.
"""
import sys
import time
from typing import Any, Callable, Iterable, Mapping, Optional

import numpy as np

from bench_kit import metrics_of
from risk_model import MAXIMA, METRICS, check_probes, load_card, model_name

# One call's longest wait for its answer: far above a forward of 10,000 records on a busy core.
CALL_TIMEOUT_S = 10.0
# How long an outage may last before the app gives up: long enough for a server's restart (its
# model load included) on a busy machine.
OUTAGE_LIMIT_S = 120.0
# Pause between two calls during an outage.
RETRY_PAUSE_S = 0.2


class BadAnswer(RuntimeError):
    """The server answered, but not with one FP32 risk per record: no retry can fix that."""


def features(metrics) -> np.ndarray:
    """clip(value / maximum, 0, 1) in float64, then float32: a [records, 4] array of the model's input."""
    maxima = np.asarray([MAXIMA[name] for name in METRICS], dtype=np.float64)
    return np.clip(np.asarray(metrics, dtype=np.float64).reshape(-1, len(METRICS)) / maxima, 0.0, 1.0).astype(np.float32)


def check_answer(risks: Optional[np.ndarray], records: int, output: str) -> np.ndarray:
    """The answer's risks as a flat float32 array, or BadAnswer saying what came instead."""
    if risks is None:
        raise BadAnswer(f"the model server's answer has no output {output!r}")
    if risks.dtype != np.float32:
        raise BadAnswer(f"the model server answered {output!r} as {risks.dtype}, not FP32")
    if tuple(risks.shape) != (records, 1):
        raise BadAnswer(f"the model server answered {output!r} of shape {list(risks.shape)} for {records} records; expected [{records}, 1]")
    return risks.reshape(-1)


class ServedScorer:
    """The model on a server: risks(records) as RiskScorer's, one infer call per batch."""

    def __init__(self, address: str, stopping: Optional[Callable[[], bool]] = None, log: Callable[[str], None] = None):
        import tritonclient.grpc as grpcclient

        self.grpc = grpcclient
        self.address = address
        self.client = grpcclient.InferenceServerClient(address)
        card = load_card()
        self.model = model_name()
        self.input_name = card["onnx"]["input"]
        self.output_name = card["onnx"]["output"]
        self.stopping = stopping or (lambda: False)
        self.log = log or (lambda line: print(line, file=sys.stderr, flush=True))

    def check(self) -> None:
        """The server hosts the frozen model: it reproduces the card's probe rows (check_probes raises otherwise)."""
        check_probes(lambda rows: self.infer(np.asarray(rows, dtype=np.float32)).tolist())

    def risks_of_metrics(self, metrics) -> np.ndarray:
        """ONE infer call for a batch of metric rows."""
        return self.infer(features(metrics))

    def infer(self, x: np.ndarray) -> np.ndarray:
        """ONE infer call for a [records, 4] float32 array; repeated through an outage, never past a wrong answer."""
        request = self.grpc.InferInput(self.input_name, list(x.shape), "FP32")
        request.set_data_from_numpy(x)
        wanted = [self.grpc.InferRequestedOutput(self.output_name)]
        result = self.call(lambda: self.client.infer(self.model, [request], outputs=wanted, client_timeout=CALL_TIMEOUT_S))
        return check_answer(result.as_numpy(self.output_name), x.shape[0], self.output_name)

    def risks(self, records: Iterable[Mapping[str, Any]]) -> list:
        rows = [metrics_of(record) for record in records]
        return self.risks_of_metrics(rows).tolist() if rows else []

    def call(self, infer: Callable[[], Any]) -> Any:
        """infer(), repeated while the server is down or slow, for at most OUTAGE_LIMIT_S."""
        from tritonclient.utils import InferenceServerException

        outage_since = None
        while True:
            try:
                result = infer()
            except InferenceServerException as error:
                if not retriable(error):
                    raise BadAnswer(f"the model server at {self.address} refused the batch: {error}") from error
                now = time.monotonic()
                if outage_since is None:
                    outage_since = now
                    self.log(f"model server at {self.address} not answering ({error.status()}): the batch is held, nothing is committed, "
                             f"retrying for up to {OUTAGE_LIMIT_S:.0f} s")
                if now - outage_since > OUTAGE_LIMIT_S or self.stopping():
                    raise RuntimeError(f"the model server at {self.address} has not answered for {now - outage_since:.0f} s: {error}; "
                                       "the batch is not committed and will be read again") from error
                time.sleep(RETRY_PAUSE_S)
                continue
            if outage_since is not None:
                self.log(f"model server at {self.address} answering again after {time.monotonic() - outage_since:.1f} s")
            return result


def retriable(error) -> bool:
    """A server that is down, restarting or slow, as gRPC says it: worth another call."""
    return error.status() in ("StatusCode.UNAVAILABLE", "StatusCode.DEADLINE_EXCEEDED")
