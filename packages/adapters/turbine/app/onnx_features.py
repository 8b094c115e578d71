"""The turbine row's handler and its checks, free of Turbine itself so they run anywhere.

The handler returns event_id, ts_ms, partition_key and the four normalised float32 feature
columns (pyarrow.compute kernels, no Python loop); Turbine's infer=ml.OnnxModel(...) scores
what it returns. check_model() holds the ONNX export and this normalisation against the model
card's probe rows through the onnxruntime package installed next to Turbine: the same shared
library Turbine dlopens when OnnxModel is given no dylib= (turbine/ml.py,
_resolve_runtime_dylib: onnxruntime/capi/libonnxruntime.so*).
"""
import os

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from risk_model import MAXIMA, METRICS, check_probes, load_card

FEATURE_COLUMNS = [f"{name}_n" for name in METRICS]


def onnx_path() -> str:
    return os.path.join(os.environ["BENCH_MODELS_DIR"], load_card()["onnx"]["file"])


def normalised(column: pa.Array, maximum: float) -> pa.Array:
    """clip(value / maximum, 0, 1) in float64, then float32: the reference's order of rounding."""
    scaled = pc.divide(pc.cast(column, pa.float64()), maximum)
    return pc.cast(pc.min_element_wise(pc.max_element_wise(scaled, 0.0), 1.0), pa.float32())


def features(batch: pa.RecordBatch) -> list[pa.Array]:
    return [normalised(batch.column(name), MAXIMA[name]) for name in METRICS]


class Score:
    """A class handler: Turbine builds one instance per shard when parallelism > 1."""

    def process(self, batch: pa.RecordBatch) -> pa.RecordBatch:
        return pa.RecordBatch.from_arrays(
            [batch.column("event_id"), batch.column("ts_ms"), batch.column("partition_key"), *features(batch)],
            names=["event_id", "ts_ms", "partition_key", *FEATURE_COLUMNS],
        )


def session():
    import onnxruntime

    return onnxruntime.InferenceSession(onnx_path(), providers=["CPUExecutionProvider"])


def score_features(sess, batch: pa.RecordBatch) -> list[float]:
    """What infer= computes on a batch Score emitted: the model on the feature columns, in order."""
    card = load_card()
    x = np.column_stack([batch.column(name).to_numpy() for name in FEATURE_COLUMNS]).astype(np.float32)
    return sess.run([card["onnx"]["output"]], {card["onnx"]["input"]: x})[0][:, 0].tolist()


def check_model() -> None:
    """The ONNX export reproduces the card's probes, and so does this handler's normalisation."""
    card = load_card()
    sess = session()
    onnx_in, onnx_out = card["onnx"]["input"], card["onnx"]["output"]
    check_probes(lambda rows: sess.run([onnx_out], {onnx_in: np.asarray(rows, dtype=np.float32)})[0][:, 0].tolist())
    metrics = pa.RecordBatch.from_pylist([{k: float(v) for k, v in p["metrics"].items()} for p in card["probes"]])
    got = np.column_stack([f.to_numpy() for f in features(metrics)])
    want = np.asarray([p["features"] for p in card["probes"]], dtype=np.float32)
    if not np.allclose(got, want, atol=card["tolerance"]):
        raise RuntimeError("the Arrow normalisation does not reproduce the card's probe features")
