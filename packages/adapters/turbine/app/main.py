"""The Turbine rows' entry: `main.py onnx` or `main.py torch`.

onnx (turbine row): Arrow compute makes the four features, Turbine's native operator scores
them. infer=ml.OnnxModel(path, features=..., output="risk", input_name=..., output_name=...) on
the subscription (turbine/ml.py, OnnxModel) runs the frozen model's ONNX export in Rust on every
batch the handler (onnx_features.Score) emits and appends the score as the "risk" column.
No dylib=: Turbine dlopens the venv's onnxruntime package, the library check_model() used.

torch (turbine-torch row): eager PyTorch inside Turbine's handler (torch_score.Score), one
forward per batch.
"""
import sys

from turbine import ml

from common import announce_ready_when_consuming, app, sink, source, subscribe_options


def subscribe_onnx():
    from onnx_features import FEATURE_COLUMNS, Score, check_model, onnx_path
    from risk_model import load_card

    check_model()
    card = load_card()
    model = ml.OnnxModel(
        onnx_path(), features=FEATURE_COLUMNS, output="risk", input_name=card["onnx"]["input"], output_name=card["onnx"]["output"]
    )
    app.subscribe(source, output=sink, infer=model, **subscribe_options())(Score)


def subscribe_torch():
    from torch_score import Score

    # One intra-op thread (turbine/ml.py, configure_threads): the network is tiny, and Turbine's
    # parallelism axis is partitions/shards.
    ml.configure_threads(intra_op=1)
    app.subscribe(source, output=sink, **subscribe_options())(Score)


if __name__ == "__main__":
    {"onnx": subscribe_onnx, "torch": subscribe_torch}[sys.argv[1]]()
    announce_ready_when_consuming()
    app.run()
