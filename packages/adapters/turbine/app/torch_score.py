"""The turbine-torch row's handler, free of Turbine itself so it runs anywhere.

The four metric columns go to torch through DLPack (torch.from_dlpack views Arrow's buffer: no
copy); stacking them into the [rows, 4] input is the one copy any single-input model needs.
Normalisation (float64, then float32, as the reference does) and the forward run in torch (the
kit's RiskScorer); the score goes back as an Arrow column next to event_id, ts_ms and
partition_key.
"""
import pyarrow as pa
import torch

from bench_kit import METRICS, RiskScorer

# At import, before app.run(): turbine/ml.py (import_torch) warns that importing torch from
# several worker threads at once can fail, and one frozen model serves every shard read-only.
SCORER = RiskScorer()


def float64_column(batch: pa.RecordBatch, name: str) -> pa.Array:
    # DLPack hands torch the buffer's own dtype; the decode schema makes metrics float64
    # already, so this cast is a no-op there and only matters for int64 input.
    column = batch.column(name)
    return column if column.type == pa.float64() else column.cast(pa.float64())


class Score:
    """A class handler: Turbine builds one instance per shard when parallelism > 1."""

    def process(self, batch: pa.RecordBatch) -> pa.RecordBatch:
        columns = [torch.from_dlpack(float64_column(batch, name)) for name in METRICS]
        risk = SCORER.risks_of_metrics(torch.stack(columns, dim=1))
        return pa.RecordBatch.from_arrays(
            [batch.column("event_id"), batch.column("ts_ms"), batch.column("partition_key"), pa.array(risk.numpy())],
            names=["event_id", "ts_ms", "partition_key", "risk"],
        )
