"""Sizes the heavier model by measuring: the CPU time per record of a candidate's batched forward.

The heavier model should cost about as much as a framework around it (about 10 µs a record on one
core): its forward is timed here, untrained weights being as costly as trained ones, in torch with
one intra-op thread (as every row runs), 10,000 records a call (the batching rows' call size).
Run on a quiet machine with Debian's python3-torch:
  python3 models/size_model.py 128,128 144,144 160,160
Prints, per candidate, its multiply-adds per record and the median and spread of CPU µs per record.
"""
import statistics
import sys
import time

import torch

from risk_model import METRICS, build_network

CALL_SIZE = 10_000
WARM_CALLS = 3
TIMED_CALLS = 15


def multiply_adds(hidden: list) -> int:
    widths = [len(METRICS), *hidden, 1]
    return sum(a * b for a, b in zip(widths, widths[1:]))


def micros_per_record(hidden: list) -> list:
    torch.manual_seed(0)
    model = build_network(hidden).eval()
    x = torch.rand(CALL_SIZE, len(METRICS))
    with torch.no_grad():
        for _ in range(WARM_CALLS):
            model(x)
        samples = []
        for _ in range(TIMED_CALLS):
            start = time.process_time()
            model(x)
            samples.append((time.process_time() - start) / CALL_SIZE * 1e6)
    return samples


def main() -> None:
    torch.set_num_threads(1)
    print(f"torch {torch.__version__}, 1 intra-op thread, {CALL_SIZE} records a call, CPU µs per record over {TIMED_CALLS} calls")
    for spec in sys.argv[1:] or ["16"]:
        hidden = [int(w) for w in spec.split(",")]
        s = micros_per_record(hidden)
        spread = f"min {min(s):.2f}, max {max(s):.2f}"
        print(f"hidden {spec:>9}: {multiply_adds(hidden):>7} multiply-adds a record, median {statistics.median(s):.2f} µs ({spread})")


if __name__ == "__main__":
    main()
