"""PyFlink scoring job: Kafka SQL source -> vectorized (pandas) UDF -> Kafka SQL sink.

The job runs in a local MiniCluster inside the JVM that PyFlink starts; the UDF runs in
separate Python worker processes (PROCESS mode: pandas UDFs are not allowed in THREAD mode),
each batch crossing to them as Arrow over gRPC. The source reads the one input partition with
one subtask; everything after it runs at parallelism.default = BENCH_PARALLELISM.

At-least-once: the sink flushes its producer on every checkpoint (1 s), and the source commits
its offsets to the consumer group when a checkpoint completes, so the group's committed offset
never passes a record whose output is not yet acknowledged by the broker.

Exactly-once (BENCH_GUARANTEE): the sink writes each checkpoint's outputs in a Kafka transaction
that it commits when the checkpoint completes, and the source's offsets live in the checkpoint.
A restart resumes from the last completed checkpoint (BENCH_RESTORE_FROM), which is what makes
the outputs exactly-once: the sink then aborts the transactions the killed job left open.

Served (BENCH_MODEL_SERVER): each Arrow batch the UDF gets is ONE infer call to the model server
(the kit's ServedScorer, tritonclient's gRPC client) instead of one forward, in the Python worker.
Through a server outage the call is repeated and the batch held: the Python operator flushes its
worker's batches before it snapshots, so no checkpoint completes and nothing is committed until
the server answers again.

Settings come from the BENCH_* environment variables the adapter sets (the sink's producer
settings from BENCH_KAFKA_PRODUCER, the consumer keeps the connector's defaults: a deviation); BENCH_FLINK_JAR is the
Kafka SQL connector jar, BENCH_CHECKPOINT_DIR and BENCH_TMP_DIR are folders in the run's folder.
"""
import logging
import os
import sys

from pyflink.common import JobStatus
from pyflink.table import DataTypes, EnvironmentSettings, TableEnvironment
from pyflink.table.udf import ScalarFunction, udf

sys.path.insert(0, os.environ["BENCH_MODELS_DIR"])
from bench_kit import METRICS, announce_ready, bench_env, kafka_settings, scorer_for, settings_as_text, stop_event  # noqa: E402


class Risk(ScalarFunction):
    """Scores one Arrow batch: the four metric columns in, one risk column out. Served
    (BENCH_MODEL_SERVER), the batch is ONE infer call to the model server instead of one forward."""

    def open(self, function_context):
        # Runs in the Python worker, not in the driver: the model is set up there, one torch
        # thread per worker (one worker per slot), so N workers do not oversubscribe N cores.
        # Served, each worker holds its own gRPC client, checked against the card's probe rows.
        sys.path.insert(0, os.environ["BENCH_MODELS_DIR"])
        from bench_kit import bench_env, scorer_for

        self.scorer = scorer_for(bench_env())

    def eval(self, latency_ms, queue_depth, cpu_usage, error_count):
        import numpy as np
        import pandas as pd

        metrics = np.column_stack([s.to_numpy(dtype=np.float64) for s in (latency_ms, queue_depth, cpu_usage, error_count)])
        # RiskScorer answers a torch tensor, ServedScorer a numpy array: np.asarray reads both.
        return pd.Series(np.asarray(self.scorer.risks_of_metrics(metrics)), dtype=np.float64)


def kafka_table_ddl(name, columns, options):
    """CREATE TABLE for a Kafka topic: partition_key is the message key (raw), the other columns
    the JSON value."""
    with_options = {
        "connector": "kafka",
        **options,
        "key.format": "raw",
        "key.fields": "partition_key",
        "value.format": "json",
        "value.fields-include": "EXCEPT_KEY",
    }
    column_lines = ",\n    ".join(f"{column} {sql_type}" for column, sql_type in {"partition_key": "STRING", **columns}.items())
    option_lines = ",\n    ".join(f"'{key}' = '{value}'" for key, value in settings_as_text(with_options).items())
    return f"CREATE TABLE {name} (\n    {column_lines}\n) WITH (\n    {option_lines}\n)"


def source_ddl(topic, bootstrap, group_id):
    # Only the fields the model and the output need: Flink's JSON format skips the other 13
    # while parsing. The Kafka client keeps the connector's own fetch defaults (see the
    # adapter's deviations).
    columns = {"event_id": "STRING", "ts_ms": "BIGINT", **{name: "DOUBLE" for name in METRICS}}
    return kafka_table_ddl("input", columns, {
        "topic": topic,
        "properties.bootstrap.servers": bootstrap,
        "properties.group.id": group_id,
        "scan.startup.mode": "group-offsets",
        "properties.auto.offset.reset": "earliest",
        "scan.parallelism": "1",
        # A record that is not a JSON object of these types is skipped (and a field that fails
        # to parse is NULL) instead of failing the job; VALID drops the rest.
        "value.json.ignore-parse-errors": True,
    })


def sink_ddl(topic, bootstrap, producer, bench):
    """The sink's producer takes the shared settings (BENCH_KAFKA_PRODUCER): their names are the
    Java client's too."""
    return kafka_table_ddl("output", {"event_id": "STRING", "ts_ms": "BIGINT", "risk": "DOUBLE"}, {
        "topic": topic,
        "properties.bootstrap.servers": bootstrap,
        **{f"properties.{name}": value for name, value in producer.items()},
        **(exactly_once_sink(bench.transactional_id) if bench.exactly_once else {"sink.delivery-guarantee": "at-least-once"}),
    })


def exactly_once_sink(transactional_id):
    """The sink's exactly-once options. The connector's own transaction timeout (1 h) is over the
    broker's transaction.max.timeout.ms (15 min), which refuses it: the row takes the Kafka
    client's default, 60 s, far above a checkpoint's interval and a restart."""
    return {
        "sink.delivery-guarantee": "exactly-once",
        "sink.transactional-id-prefix": transactional_id,
        "properties.transaction.timeout.ms": 60000,
    }


def checkpoint_config(bench):
    """Checkpoints every second; under exactly-once they are kept when the job ends, and a
    restart resumes from the newest completed one."""
    config = {
        "execution.checkpointing.interval": "1 s",
        "execution.checkpointing.storage": "filesystem",
        "execution.checkpointing.dir": "file://" + os.environ["BENCH_CHECKPOINT_DIR"],
    }
    if bench.exactly_once:
        config["execution.checkpointing.externalized-checkpoint-retention"] = "RETAIN_ON_CANCELLATION"
        if os.environ.get("BENCH_RESTORE_FROM"):
            config["execution.state-recovery.path"] = "file://" + os.environ["BENCH_RESTORE_FROM"]
    return config


# A malformed record is skipped, not scored: every field present, every number finite (JSON's
# 1e999 parses as Infinity). Flink counts nothing here: skipped = consumed - output.
VALID = " AND ".join(
    ["event_id IS NOT NULL", "ts_ms IS NOT NULL"]
    + [f"ABS({name}) < 1E308" for name in METRICS]
)

INSERT = f"""
    INSERT INTO output
    SELECT partition_key, event_id, ts_ms, risk(latency_ms, queue_depth, cpu_usage, error_count)
    FROM input
    WHERE {VALID}"""


def check_model_server(bench):
    """Served: the driver checks the server against the card's probe rows (the kit's scorer_for)
    before the JVM starts, so a server that is down past the outage limit or hosts another model
    ends the start with its reason; a failing open() in a worker would only make Flink restart
    the task. Embedded: nothing, the driver never loads the model."""
    if bench.model_server is not None:
        scorer_for(bench).client.close()


def main():
    bench = bench_env()
    parallelism = bench.parallelism
    check_model_server(bench)

    t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    config = t_env.get_config()
    for key, value in {
        "pipeline.name": "bench-flink-score",
        "pipeline.jars": "file://" + os.environ["BENCH_FLINK_JAR"],
        "parallelism.default": str(parallelism),
        # The local MiniCluster gets one slot per parallel subtask.
        "taskmanager.numberOfTaskSlots": str(parallelism),
        **checkpoint_config(bench),
        # Flink's scratch files (and the Python workers' unpacked environment) in the run's folder.
        "io.tmp.dirs": os.environ["BENCH_TMP_DIR"],
        "python.execution-mode": "process",
        "python.executable": sys.executable,
        "python.client.executable": sys.executable,
    }.items():
        config.set(key, value)

    t_env.create_temporary_function(
        "risk",
        udf(Risk(), result_type=DataTypes.DOUBLE(), func_type="pandas"),
    )
    t_env.execute_sql(source_ddl(bench.input_topic, bench.bootstrap, bench.group_id))
    t_env.execute_sql(sink_ddl(bench.output_topic, bench.bootstrap, kafka_settings("producer"), bench))
    # The plan in the log shows the exchange between the 1-subtask source and the N scorers.
    print(t_env.explain_sql(INSERT), flush=True)

    # The runner signals the whole process group, so the JVM is closing at the same time:
    # py4j's complaints about the vanishing gateway are expected, not worth logging.
    stopping = stop_event(on_stop=lambda: logging.disable(logging.CRITICAL))

    job_client = t_env.execute_sql(INSERT).get_job_client()
    served = f" served by {bench.model_server}" if bench.model_server else ""
    ready = False
    try:
        # Poll from the main thread (py4j calls stay out of the signal handler).
        while not stopping.wait(0.5):
            status = job_client.get_job_status().result()
            if status == JobStatus.RUNNING and not ready:
                announce_ready(f"job {job_client.get_job_id()} parallelism {parallelism}{served}")
                ready = True
            elif status.is_globally_terminal_state():
                print(f"job ended: {status.name}", file=sys.stderr, flush=True)
                job_client.get_job_execution_result().result()  # raises the job's failure cause
                sys.exit(1)
        # No final checkpoint: at-least-once replays what the group has not committed, and
        # exactly-once resumes from the last completed checkpoint, whose outputs are committed.
        job_client.cancel().result()
        print("job cancelled", flush=True)
    except Exception as error:
        if not stopping.is_set():
            raise
        # SIGTERM went to the whole process group: the JVM is closing its MiniCluster by itself.
        print(f"stopped with the JVM ({type(error).__name__})", flush=True)
        # Skip interpreter teardown: its finalizers would keep calling the gone gateway.
        os._exit(0)


if __name__ == "__main__":
    main()
