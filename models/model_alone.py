"""The model alone: CPU time per record of the frozen model's forward, outside any framework.

The page splits a row's µs per inference into the model and the framework around it, so the model
is timed here at the call shapes the rows use: a runtime (torch, or ONNX Runtime) and a number of
records per call (1 for a row that calls per record, up to 10,000 for a batching row). Each call
gets its input ready as the runtime takes it (a float32 tensor or array of normalised features):
turning records into that input is framework work. One intra-op thread in both runtimes, as every
row runs. The card names the model (BENCH_MODEL) and its exports; both are checked against the
card's probe rows before anything is timed.

  python model_alone.py torch:1 torch:10000 onnxruntime:1

prints one JSON object: the runtimes' versions and, per shape, CPU µs per record in each of
REPETITIONS repetitions (each at least MIN_CPU_SEC of calls after WARM_CALLS untimed ones).
"""
import json
import sys
import time

import numpy as np

from risk_model import HERE, METRICS, check_probes, load_card, load_torch_model, model_name

REPETITIONS = 5
MIN_CPU_SEC = 0.3
WARM_CALLS = 3
SEED = 42


def torch_forward(records: int):
    import torch

    torch.set_num_threads(1)
    model = load_torch_model()
    x = torch.from_numpy(features(records))

    def call():
        with torch.no_grad():
            return model(x)

    return call, {"torch": torch.__version__}


def onnxruntime_forward(records: int):
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    session = ort.InferenceSession(str(HERE / load_card()["onnx"]["file"]), options, providers=["CPUExecutionProvider"])
    name = session.get_inputs()[0].name
    check_probes(lambda rows: session.run(None, {name: np.asarray(rows, dtype=np.float32)})[0].reshape(-1).tolist())
    x = features(records)

    def call():
        return session.run(None, {name: x})

    return call, {"onnxruntime": ort.__version__}


RUNTIMES = {"torch": torch_forward, "onnxruntime": onnxruntime_forward}


def features(records: int) -> np.ndarray:
    """Normalised features in [0, 1): a dense network's cost does not depend on the values."""
    return np.random.default_rng(SEED).random((records, len(METRICS)), dtype=np.float32)


def micros_per_record(call, records: int) -> list:
    for _ in range(WARM_CALLS):
        call()
    samples = []
    for _ in range(REPETITIONS):
        calls, start = 0, time.process_time()
        while (spent := time.process_time() - start) < MIN_CPU_SEC:
            call()
            calls += 1
        samples.append(spent / (calls * records) * 1e6)
    return samples


def parse_shape(text: str) -> tuple:
    runtime, _, records = text.partition(":")
    if runtime not in RUNTIMES or not records.isdigit() or int(records) < 1:
        raise SystemExit(f"model_alone: a shape is RUNTIME:RECORDS with RUNTIME one of {', '.join(RUNTIMES)}, got {text!r}")
    return runtime, int(records)


def main(argv: list) -> None:
    shapes = [parse_shape(a) for a in argv]
    if not shapes:
        raise SystemExit("model_alone: give at least one shape, e.g. torch:1 onnxruntime:10000")
    versions, measured = {}, []
    for runtime, records in shapes:
        call, version = RUNTIMES[runtime](records)
        versions.update(version)
        measured.append({"runtime": runtime, "records": records, "usPerRecord": micros_per_record(call, records)})
    print(json.dumps({"model": model_name(), "versions": versions, "shapes": measured}))


if __name__ == "__main__":
    main(sys.argv[1:])
