"""Open Inference Protocol messages written and read by protobuf's own Python classes: kserve's
generated grpc_predict_v2_pb2, the bench's model server's. The kafka-streams row's message test
(src/infer-messages.test.ts) holds the app's hand-written messages against them: the requests the
app must write byte for byte, the app's requests read back field by field, and answers (right and
wrong) for the app to read.

  python infer_messages.py < jobs.json

jobs.json: {"requests": [{model, input, output, features: [[...], ...]}], "parse": [request hex],
"responses": [{outputs: [{name, datatype, shape, fp32_contents?}], raw?: [[value, ...]],
raw_hex?: [hex], raw_dtype?, model_name?, id?, parameters?: {name: string}}]}; a value may be
"nan" or "inf", which JSON cannot spell. Prints {"requests": [hex], "parsed": [...], "responses": [hex]}.
"""
import json
import sys

import numpy as np
from kserve.protocol.grpc import grpc_predict_v2_pb2 as pb


def request(job) -> str:
    """The request as tritonclient writes one: the features raw (little-endian FP32), one requested output."""
    x = np.asarray(job["features"], dtype=np.float32)
    message = pb.ModelInferRequest(
        model_name=job["model"],
        inputs=[pb.ModelInferRequest.InferInputTensor(name=job["input"], datatype="FP32", shape=list(x.shape))],
        outputs=[pb.ModelInferRequest.InferRequestedOutputTensor(name=job["output"])],
        raw_input_contents=[x.astype("<f4").tobytes()],
    )
    return message.SerializeToString().hex()


def parsed(text: str) -> dict:
    message = pb.ModelInferRequest()
    message.ParseFromString(bytes.fromhex(text))
    return {
        "model_name": message.model_name,
        "inputs": [{"name": t.name, "datatype": t.datatype, "shape": list(t.shape)} for t in message.inputs],
        "outputs": [o.name for o in message.outputs],
        "raw": [np.frombuffer(raw, dtype="<f4").tolist() for raw in message.raw_input_contents],
    }


def response(spec) -> str:
    message = pb.ModelInferResponse(model_name=spec.get("model_name", ""), id=spec.get("id", ""))
    for name, value in spec.get("parameters", {}).items():
        message.parameters[name].string_param = value
    for tensor in spec["outputs"]:
        out = message.outputs.add(name=tensor["name"], datatype=tensor["datatype"], shape=tensor["shape"])
        if "fp32_contents" in tensor:
            out.contents.fp32_contents.extend(float(v) for v in tensor["fp32_contents"])
    for raw in spec.get("raw", []):
        message.raw_output_contents.append(np.asarray([float(v) for v in raw], dtype=spec.get("raw_dtype", "<f4")).tobytes())
    for raw in spec.get("raw_hex", []):
        message.raw_output_contents.append(bytes.fromhex(raw))
    return message.SerializeToString().hex()


def main() -> None:
    jobs = json.load(sys.stdin)
    print(json.dumps({
        "requests": [request(job) for job in jobs.get("requests", [])],
        "parsed": [parsed(text) for text in jobs.get("parse", [])],
        "responses": [response(spec) for spec in jobs.get("responses", [])],
    }))


if __name__ == "__main__":
    main()
