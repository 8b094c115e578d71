"""The quix row's per-record model call alone: RiskScorer.risks([row]), 20,000 calls, CPU µs per call.
Run with the quix venv's python: python torch_per_call.py MODELS_DIR RECORDS_JSONL"""
import json
import sys
import time

sys.path.insert(0, sys.argv[1])
from bench_kit import RiskScorer  # noqa: E402

rows = [json.loads(line)["record"] for line in open(sys.argv[2])][:100]
scorer = RiskScorer()
for _ in range(3):
    start = time.process_time()
    for i in range(20000):
        scorer.risks([rows[i % 100]])
    print(f"per-call forward: {(time.process_time() - start) / 20000 * 1e6:.1f} µs")
