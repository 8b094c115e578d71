"""The CPython yardstick's timed work in one fresh interpreter: what a Python row does to a
record on its own CPython, without Kafka and without the model's forward (which is libtorch, native
code): the kit's decode with orjson and its complete-record check, the four features normalised
as risk_model does, the kit's output record, encoded with orjson.

usage: python cpython-work.py MODELS_DIR RECORDS_FILE PER_REP REPS WARMUP
Prints one JSON line: each repetition's CPU nanoseconds (time.process_time_ns) and a checksum.
"""
import json
import sys
import time


def main() -> None:
    models_dir, records_file, per_rep, reps, warmup = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
    sys.path.insert(0, models_dir)
    import orjson
    from bench_kit import RecordDecoder, metrics_of, output_record
    from risk_model import normalise

    with open(records_file, "rb") as f:
        records = f.read().splitlines()
    decoder = RecordDecoder(orjson.loads)

    def run(count: int) -> int:
        checksum = 0
        for i in range(count):
            record = decoder.decode(records[i % len(records)], i)
            features = normalise(*metrics_of(record))
            checksum += len(orjson.dumps(output_record(record, features[0] * 0.5)))
        return checksum

    run(warmup)
    cpu_ns = []
    checksum = 0
    for _ in range(reps):
        start = time.process_time_ns()
        checksum = run(per_rep)
        cpu_ns.append(time.process_time_ns() - start)
    print(json.dumps({"cpuNanos": cpu_ns, "checksum": checksum, "runtime": f"python {sys.version.split()[0]}, orjson {orjson.__version__}"}))


if __name__ == "__main__":
    main()
