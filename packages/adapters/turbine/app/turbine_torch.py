"""turbine-torch row: eager PyTorch inside Turbine's handler, one forward per batch.

The four metric columns go to torch through DLPack (torch.from_dlpack views Arrow's buffer:
no copy); stacking them into the [rows, 4] input is the one copy any single-input model needs.
Normalisation (float64, then float32, as the reference does) and the forward run in torch;
the score goes back as an Arrow column next to event_id, ts_ms and partition_key.
"""
import pyarrow as pa
import torch
from turbine import ml

from common import FEATURES, MAXIMA, announce_ready, app, sink, source, subscribe_options
from risk_model import load_torch_model

# One intra-op thread: the network is tiny, and Turbine's parallelism axis is partitions/shards.
ml.configure_threads(intra_op=1)
model = load_torch_model()  # checks the card's probe rows
MAXIMA_T = torch.tensor([MAXIMA[name] for name in FEATURES], dtype=torch.float64)


class Score:
    """A class handler: Turbine builds one instance per shard when parallelism > 1."""

    def process(self, batch: pa.RecordBatch) -> pa.RecordBatch:
        columns = [torch.from_dlpack(batch.column(name)) for name in FEATURES]
        x = (torch.stack(columns, dim=1) / MAXIMA_T).clamp_(0.0, 1.0).to(torch.float32)
        with torch.inference_mode():
            risk = model(x).squeeze(1)
        return pa.RecordBatch.from_arrays(
            [batch.column("event_id"), batch.column("ts_ms"), batch.column("partition_key"), pa.array(risk.numpy())],
            names=["event_id", "ts_ms", "partition_key", "risk"],
        )


if __name__ == "__main__":
    app.subscribe(source, output=sink, **subscribe_options())(Score)
    announce_ready()
    app.run()
