"""Trains a frozen risk model once and writes what every product loads.

Nobody needs to run this to bench: its outputs are committed. It is here so the models can be
rebuilt and audited. Run with Debian's python3-torch:
  python3 models/make_model.py                                      the seed's 4-16-1 risk_mlp
  python3 models/make_model.py --name risk_mlp_wide --hidden 144,144   the heavier model (--model)

Both models learn the same labels from the same data and seed; only the hidden layers differ.
Outputs (next to this file), for NAME:
  NAME.pt          state_dict of the network (risk_model.build_network(hidden), torch.save)
  NAME.onnx        the same network, float32 [N, 4] -> [N, 1], dynamic batch
  NAME.card.json   feature order, maxima, hidden widths, weight digest, probe rows with expected risk
"""
import argparse
import hashlib
import json
import math
from pathlib import Path

import numpy as np
import torch

from risk_model import MAXIMA, METRICS, build_network, normalise

HERE = Path(__file__).resolve().parent
SEED = 20260910
TRAIN_ROWS = 50_000


def draw_metrics(rng: np.random.Generator, n: int) -> np.ndarray:
    """The generator's distributions (packages/core/src/generator.ts documents them)."""
    latency = np.round(np.exp(math.log(120) + 1.1 * rng.standard_normal(n)), 2)
    queue = np.maximum(0, np.floor(np.exp(rng.random(n) * math.log(1200))) - 1)
    cpu = np.round((rng.random(n) + rng.random(n) + rng.random(n)) / 3 * 100, 1)
    errors = np.floor(-np.log(1 - rng.random(n)) * 3)
    burst = rng.random(n) < 0.02
    errors = errors + np.where(burst, np.floor(rng.random(n) * 60), 0)
    return np.stack([latency, queue, cpu, errors], axis=1)


def label(features: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The labelling rule: an incident is likelier with slow, queued, hot, erroring hosts."""
    lat, queue, cpu, err = features.T
    logit = 6.0 * lat + 2.5 * queue + 3.0 * cpu**2 + 8.0 * err - 4.0
    return (rng.random(len(logit)) < 1 / (1 + np.exp(-logit))).astype(np.float32)


def weight_digest(model: torch.nn.Module) -> str:
    h = hashlib.sha256()
    for name, tensor in model.state_dict().items():
        h.update(name.encode())
        h.update(tensor.detach().contiguous().numpy().astype("<f4").tobytes())
    return h.hexdigest()


def architecture(hidden: list) -> str:
    widths = [len(METRICS), *hidden]
    layers = [f"Linear({a},{b}) -> ReLU" for a, b in zip(widths, widths[1:])]
    return " -> ".join([*layers, f"Linear({widths[-1]},1) -> Sigmoid"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--name", default="risk_mlp")
    parser.add_argument("--hidden", default="16", help="hidden layers' widths, comma-separated")
    args = parser.parse_args()
    name, hidden = args.name, [int(w) for w in args.hidden.split(",")]
    rng = np.random.default_rng(SEED)
    torch.manual_seed(SEED)
    x = np.stack([normalise(*row) for row in draw_metrics(rng, TRAIN_ROWS)]).astype(np.float32)
    y = label(x, rng)
    model = build_network(hidden)
    opt = torch.optim.Adam(model.parameters(), lr=0.02)
    loss_fn = torch.nn.BCELoss()
    xt, yt = torch.from_numpy(x), torch.from_numpy(y).unsqueeze(1)
    for _ in range(400):
        opt.zero_grad()
        loss = loss_fn(model(xt), yt)
        loss.backward()
        opt.step()
    model.eval()

    torch.save(model.state_dict(), HERE / f"{name}.pt")
    torch.onnx.export(
        model, torch.zeros(1, 4), HERE / f"{name}.onnx", input_names=["features"], output_names=["risk"],
        dynamic_axes={"features": {0: "batch"}, "risk": {0: "batch"}}, opset_version=13,
    )

    probe_metrics = [
        [0, 0, 0, 0], [5000, 1000, 100, 50], [120, 30, 50, 3], [2500, 500, 50, 25],
        [9000, 1500, 100, 90], [45.5, 2, 12.3, 0], [800, 900, 95.5, 1], [300, 50, 40, 20],
        [1500.25, 10, 70.1, 7], [60, 700, 20, 0], [3500, 20, 99.9, 45], [250, 250, 65, 5],
    ] + draw_metrics(np.random.default_rng(SEED + 1), 8).tolist()
    probe_features = np.stack([normalise(*m) for m in probe_metrics]).astype(np.float32)
    with torch.no_grad():
        risks = model(torch.from_numpy(probe_features)).squeeze(1).tolist()
    card = {
        "name": name,
        "architecture": architecture(hidden),
        **({} if hidden == [16] else {"hidden": hidden}),
        "features": list(METRICS),
        "maxima": MAXIMA,
        "normalisation": "feature = clip(value / maximum, 0, 1), float32",
        "onnx": {"file": f"{name}.onnx", "input": "features", "output": "risk", "opset": 13},
        "torch": {"file": f"{name}.pt", "trained_with": torch.__version__},
        "weights_sha256": weight_digest(model),
        "training": {"seed": SEED, "rows": TRAIN_ROWS, "final_bce": round(float(loss), 5)},
        "tolerance": 1e-5,
        "probes": [
            {"metrics": dict(zip(METRICS, m)), "features": f.tolist(), "risk": r}
            for m, f, r in zip(probe_metrics, probe_features, risks)
        ],
    }
    (HERE / f"{name}.card.json").write_text(json.dumps(card, indent=2) + "\n")
    print(f"wrote {name}.pt/.onnx/.card.json; final BCE {float(loss):.4f}; digest {card['weights_sha256'][:12]}")


if __name__ == "__main__":
    main()
