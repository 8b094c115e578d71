"""Calls the UDF server the way RisingWave does: Arrow Flight do_exchange on the function's
path, the argument columns as record batches, the results streamed back.

Reads JSON lines of records on stdin, writes one JSON list of scores on stdout.
Usage: python flight_client.py HOST:PORT [BATCH_ROWS]
"""
import json
import sys

import pyarrow as pa
import pyarrow.flight as flight


def main() -> None:
    location = sys.argv[1]
    batch_rows = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    records = [json.loads(line) for line in sys.stdin if line.strip()]
    client = flight.FlightClient(f"grpc://{location}")
    descriptor = flight.FlightDescriptor.for_path("risk")
    # The server describes the function: its argument schema followed by the result column.
    info = client.get_flight_info(descriptor)
    schema = pa.schema(list(info.schema)[: info.total_records])
    writer, reader = client.do_exchange(descriptor)
    writer.begin(schema)
    scores = []
    for start in range(0, len(records), batch_rows):
        chunk = records[start : start + batch_rows]
        columns = [pa.array([r[field.name] for r in chunk], type=field.type) for field in schema]
        writer.write_batch(pa.RecordBatch.from_arrays(columns, schema=schema))
    writer.done_writing()
    for piece in reader:
        scores.extend(piece.data.column(0).to_pylist())
    writer.close()
    print(json.dumps({"schema": [f"{f.name}:{f.type}" for f in info.schema], "scores": scores}))


if __name__ == "__main__":
    main()
