"""turbine row: Arrow compute makes the four features, Turbine's native operator scores them.

infer=ml.OnnxModel(path, features=..., output="risk", input_name=..., output_name=...) on the
subscription (turbine/ml.py, OnnxModel) runs the frozen model's ONNX export in Rust on every
batch the handler (onnx_features.Score) emits and appends the score as the "risk" column.
No dylib=: Turbine dlopens the venv's onnxruntime package, the library check_model() used.
"""
from turbine import ml

from common import announce_ready, app, sink, source, subscribe_options
from onnx_features import FEATURE_COLUMNS, Score, check_model, onnx_path
from risk_model import load_card

if __name__ == "__main__":
    check_model()
    card = load_card()
    model = ml.OnnxModel(
        onnx_path(), features=FEATURE_COLUMNS, output="risk", input_name=card["onnx"]["input"], output_name=card["onnx"]["output"]
    )
    app.subscribe(source, output=sink, infer=model, **subscribe_options())(Score)
    announce_ready()
    app.run()
