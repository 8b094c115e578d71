"""The frozen model behind a model server: KServe's Python model server (kserve.ModelServer)
hosting the model card's ONNX export in ONNX Runtime, as the served rows call it.

It speaks the Open Inference Protocol (KServe v2) over gRPC (the rows' protocol) and REST (the
bench's health check: GET /v2/models/<name>/ready). One model, named by the card (BENCH_MODEL):
an infer request carries one FP32 input of shape [records, 4] (the normalised features, as the
card's "features" name them) and gets one FP32 output of shape [records, 1], the risks. ONNX Runtime
runs on one intra-op thread, as every row's model does; the server batches nothing across requests
(each request is one forward of the batch the row sent). A request of any other shape or type is
refused with the reason, before the model runs.

  python serve_model.py --http_port 8080 --grpc_port 8081

prints SERVER_READY once the model is loaded and checked against the card's probe rows and the
server is about to listen (the bench then waits for the REST readiness endpoint).
"""
import sys

import numpy as np
import onnxruntime as ort
from kserve import InferOutput, InferRequest, InferResponse, Model, ModelServer
from kserve.errors import InvalidInput

from risk_model import HERE, METRICS, check_probes, load_card, model_name


def onnx_session() -> ort.InferenceSession:
    """The card's ONNX export on one thread, sequential: the shape every row's model runs in."""
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    return ort.InferenceSession(str(HERE / load_card()["onnx"]["file"]), options, providers=["CPUExecutionProvider"])


def features_of(request: InferRequest) -> np.ndarray:
    """The request's one input as a [records, 4] float32 array, or InvalidInput with the reason."""
    if len(request.inputs) != 1:
        raise InvalidInput(f"expected 1 input, got {len(request.inputs)}")
    tensor = request.inputs[0]
    if tensor.datatype != "FP32":
        raise InvalidInput(f"input {tensor.name}: expected FP32, got {tensor.datatype}")
    shape = list(tensor.shape)
    if len(shape) != 2 or shape[1] != len(METRICS):
        raise InvalidInput(f"input {tensor.name}: expected shape [records, {len(METRICS)}], got {shape}")
    return np.asarray(tensor.as_numpy(), dtype=np.float32).reshape(shape)


class RiskModel(Model):
    """The frozen model as a KServe model: loaded and probed before it says it is ready."""

    def __init__(self, name: str):
        super().__init__(name)
        self.session = None
        self.input_name = ""

    def load(self) -> bool:
        self.session = onnx_session()
        self.input_name = self.session.get_inputs()[0].name
        check_probes(lambda rows: self.forward(np.asarray(rows, dtype=np.float32)).reshape(-1).tolist())
        self.ready = True
        return self.ready

    def forward(self, features: np.ndarray) -> np.ndarray:
        return self.session.run(None, {self.input_name: features})[0]

    def predict(self, payload: InferRequest, headers=None, response_headers=None) -> InferResponse:
        risks = np.ascontiguousarray(self.forward(features_of(payload)), dtype=np.float32)
        output = InferOutput(name=load_card()["onnx"]["output"], shape=list(risks.shape), datatype="FP32")
        # Raw bytes: the gRPC answer carries them in raw_output_contents, as Triton's clients read them.
        output.set_data_from_numpy(risks, binary_data=True)
        return InferResponse(response_id=payload.id, model_name=self.name, infer_outputs=[output], use_binary_outputs=True)


def main() -> None:
    model = RiskModel(model_name())
    model.load()
    print(f"SERVER_READY {model.name} onnxruntime {ort.__version__}", flush=True)
    # One process, no uvicorn workers beside it: the row's cost then counts one server.
    ModelServer(workers=1).start([model])


if __name__ == "__main__":
    sys.exit(main())
