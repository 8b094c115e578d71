"""The frozen risk model as every Python product loads it: one definition, shared.

Products put this folder on sys.path (the adapters pass BENCH_MODELS_DIR) and call
load_torch_model(); check_probes() proves a runtime reproduces the model card before a
product is timed. BENCH_MODEL names the card (`<name>.card.json`, default risk_mlp), and the
card names the exports and the hidden layers' widths: every model is loaded by this one code.
"""
import json
import os
from pathlib import Path

# The record's four metrics, in the order the network takes them (the card's "features").
METRICS = ("latency_ms", "queue_depth", "cpu_usage", "error_count")
MAXIMA = {"latency_ms": 5000.0, "queue_depth": 1000.0, "cpu_usage": 100.0, "error_count": 50.0}
HERE = Path(os.environ.get("BENCH_MODELS_DIR", Path(__file__).resolve().parent))
DEFAULT_MODEL = "risk_mlp"


def normalise(latency_ms, queue_depth, cpu_usage, error_count):
    """clip(value / maximum, 0, 1) for the four metrics, in METRICS order."""
    values = (latency_ms, queue_depth, cpu_usage, error_count)
    return [min(max(v / MAXIMA[name], 0.0), 1.0) for v, name in zip(values, METRICS)]


def build_network(hidden=(16,)):
    """Linear/ReLU for each hidden width, then Linear to one output and Sigmoid: 4-16-1 by default."""
    import torch

    layers, width = [], len(METRICS)
    for h in hidden:
        layers += [torch.nn.Linear(width, h), torch.nn.ReLU()]
        width = h
    return torch.nn.Sequential(*layers, torch.nn.Linear(width, 1), torch.nn.Sigmoid())


def model_name() -> str:
    return os.environ.get("BENCH_MODEL") or DEFAULT_MODEL


def load_card() -> dict:
    return json.loads((HERE / f"{model_name()}.card.json").read_text())


def load_torch_model():
    """The frozen network in eval mode, checked against the card's probe rows."""
    import torch

    card = load_card()
    model = build_network(card.get("hidden", [16]))
    model.load_state_dict(torch.load(HERE / card["torch"]["file"], map_location="cpu"))
    model.eval()
    for p in model.parameters():
        p.requires_grad_(False)

    def score(rows):
        with torch.no_grad():
            return model(torch.tensor(rows, dtype=torch.float32)).squeeze(1).tolist()

    check_probes(score)
    return model


def check_probes(score) -> None:
    """Raises unless score(list of feature rows) matches every probe within the card's tolerance."""
    card = load_card()
    got = score([p["features"] for p in card["probes"]])
    worst = max(abs(g - p["risk"]) for g, p in zip(got, card["probes"]))
    if worst > card["tolerance"]:
        raise RuntimeError(f"model does not reproduce the card's probe rows: max error {worst:.3g}")
