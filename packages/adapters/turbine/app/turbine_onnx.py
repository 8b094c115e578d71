"""turbine row: Arrow compute makes the four features, Turbine's native operator scores them.

The handler returns event_id, ts_ms, partition_key and the four normalised float32 feature
columns (pyarrow.compute kernels, no Python loop); infer=ml.OnnxModel(...) on the subscription
runs the frozen model's ONNX export in Rust on every batch the handler emits and appends the
score as the "risk" column. The export is checked against the model card's probe rows at
start-up (through the same ONNX Runtime library Turbine dlopens).
"""
import os

import numpy as np
import onnxruntime
import pyarrow as pa
import pyarrow.compute as pc
from turbine import ml

from common import FEATURES, MAXIMA, MODELS_DIR, announce_ready, app, sink, source, subscribe_options
from risk_model import check_probes, load_card

ONNX = os.path.join(MODELS_DIR, "risk_mlp.onnx")
FEATURE_COLUMNS = [f"{name}_n" for name in FEATURES]


def normalised(column: pa.Array, maximum: float) -> pa.Array:
    """clip(value / maximum, 0, 1) in float64, then float32: the reference's order of rounding."""
    scaled = pc.divide(column, maximum)
    return pc.cast(pc.min_element_wise(pc.max_element_wise(scaled, 0.0), 1.0), pa.float32())


def features(batch: pa.RecordBatch) -> list[pa.Array]:
    return [normalised(batch.column(name), MAXIMA[name]) for name in FEATURES]


def check_model() -> None:
    """The ONNX export reproduces the card's probes, and so does this handler's normalisation."""
    card = load_card()
    session = onnxruntime.InferenceSession(ONNX, providers=["CPUExecutionProvider"])
    onnx_in, onnx_out = card["onnx"]["input"], card["onnx"]["output"]

    def score(rows):
        return session.run([onnx_out], {onnx_in: np.asarray(rows, dtype=np.float32)})[0][:, 0].tolist()

    check_probes(score)
    metrics = pa.RecordBatch.from_pylist([{k: float(v) for k, v in p["metrics"].items()} for p in card["probes"]])
    got = np.column_stack([f.to_numpy() for f in features(metrics)])
    want = np.asarray([p["features"] for p in card["probes"]], dtype=np.float32)
    if not np.allclose(got, want, atol=card["tolerance"]):
        raise RuntimeError("the Arrow normalisation does not reproduce the card's probe features")


class Score:
    """A class handler: Turbine builds one instance per shard when parallelism > 1."""

    def process(self, batch: pa.RecordBatch) -> pa.RecordBatch:
        return pa.RecordBatch.from_arrays(
            [batch.column("event_id"), batch.column("ts_ms"), batch.column("partition_key"), *features(batch)],
            names=["event_id", "ts_ms", "partition_key", *FEATURE_COLUMNS],
        )


if __name__ == "__main__":
    check_model()
    card = load_card()
    model = ml.OnnxModel(
        ONNX, features=FEATURE_COLUMNS, output="risk", input_name=card["onnx"]["input"], output_name=card["onnx"]["output"]
    )
    app.subscribe(source, output=sink, infer=model, **subscribe_options())(Score)
    announce_ready()
    app.run()
