"""turbine-torch row: eager PyTorch inside Turbine's handler (torch_score.Score), one forward per batch."""
from turbine import ml

from common import announce_ready, app, sink, source, subscribe_options
from torch_score import Score

# One intra-op thread (turbine/ml.py, configure_threads): the network is tiny, and Turbine's
# parallelism axis is partitions/shards.
ml.configure_threads(intra_op=1)

if __name__ == "__main__":
    app.subscribe(source, output=sink, **subscribe_options())(Score)
    announce_ready()
    app.run()
