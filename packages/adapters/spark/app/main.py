"""Spark row: Structured Streaming reads the input topic, scores every record with the frozen
risk model in Spark's Python workers and writes the outputs back to Kafka.

The Kafka source splits the one input partition into offset ranges, one task each
(minPartitions = the row's parallelism); mapInArrow hands every task's rows to a Python worker
as Arrow batches (scoring.py: full JSON parse, the kit's complete-record rule, one torch forward
per batch); malformed records are counted with observe() and filtered out; the Kafka sink writes
key = partition_key, value = {"event_id","ts_ms","risk"}. Micro-batches are checkpointed (offset
and commit logs written asynchronously, at most once a second): a batch whose commit was not
written is re-run after a restart (at-least-once).
Spark commits no consumer group, so a StreamingQueryListener writes each progress's end offset
(the records the query has finished) to a small file the adapter reads as consumed.
"""
import json
import os
import signal
import sys

from pyspark.sql import SparkSession
from pyspark.sql import functions as F
from pyspark.sql.streaming import StreamingQueryListener

sys.path.insert(0, os.environ["BENCH_MODELS_DIR"])
from bench_kit import announce_ready, bench_env, kafka_settings, renamed_settings, settings_as_text, stop_event, write_atomically  # noqa: E402

BENCH = bench_env()
APP_DIR = os.path.dirname(os.path.abspath(__file__))
MASTER = os.environ.get("BENCH_SPARK_MASTER") or f"local[{BENCH.parallelism}]"
DRIVER_HOST = os.environ.get("BENCH_SPARK_DRIVER_HOST", "127.0.0.1")
TRIGGER = os.environ.get("BENCH_SPARK_TRIGGER", "500 milliseconds")
MAX_OFFSETS_PER_TRIGGER = int(os.environ.get("BENCH_SPARK_MAX_OFFSETS_PER_TRIGGER", "100000"))
CHECKPOINT = os.environ["BENCH_SPARK_CHECKPOINT"]
PROGRESS_FILE = os.environ["BENCH_SPARK_PROGRESS_FILE"]
STATSD_PORT = os.environ.get("BENCH_SPARK_STATSD_PORT")
# One line per micro-batch (rows, durations by phase) in the log, for tuning the trigger.
LOG_PROGRESS = os.environ.get("BENCH_SPARK_LOG_PROGRESS") == "1"

# librdkafka's names -> the Java client's, as the connector takes them ("kafka."-prefixed).
# queued.max.messages.kbytes / queued.min.messages have no Java equivalent (a stated deviation).
CONSUMER = renamed_settings("consumer", {
    "fetch.min.bytes": "kafka.fetch.min.bytes",
    "fetch.wait.max.ms": "kafka.fetch.max.wait.ms",
    "max.partition.fetch.bytes": "kafka.max.partition.fetch.bytes",
})
PRODUCER = {f"kafka.{name}": value for name, value in kafka_settings("producer").items()}
print("BENCH_KAFKA_SETTINGS " + json.dumps({"consumer": CONSUMER, "producer": PRODUCER}), flush=True)


def remote_metrics_conf() -> dict:
    """On a cluster: executors report their own process CPU (the JVMCPU source's jvmCpuTime)
    and process-tree memory each second to the adapter's StatsD listener."""
    if not STATSD_PORT:
        return {}
    sink = "spark.metrics.conf.executor.sink.statsd"
    return {
        f"{sink}.class": "org.apache.spark.metrics.sink.StatsdSink",
        f"{sink}.host": DRIVER_HOST,
        f"{sink}.port": STATSD_PORT,
        f"{sink}.period": "1",
        f"{sink}.unit": "seconds",
        "spark.executor.processTreeMetrics.enabled": "true",
        "spark.executor.metrics.pollingInterval": "1s",
    }


def session() -> SparkSession:
    builder = SparkSession.builder.master(MASTER).appName("bench-spark")
    conf = {
        "spark.jars": os.environ["BENCH_SPARK_JARS"],
        "spark.driver.host": DRIVER_HOST,
        "spark.driver.bindAddress": DRIVER_HOST,
        "spark.ui.enabled": "false",
        "spark.sql.shuffle.partitions": str(BENCH.parallelism),
        "spark.pyspark.python": sys.executable,
        "spark.executorEnv.BENCH_MODELS_DIR": BENCH.models_dir,
        # One Arrow batch per 10k rows, one forward each (Spark's default, written out).
        "spark.sql.execution.arrow.maxRecordsPerBatch": "10000",
        **remote_metrics_conf(),
    }
    for key, value in conf.items():
        builder = builder.config(key, value)
    return builder.getOrCreate()


class Progress(StreamingQueryListener):
    """Writes the input offset the query has finished to, and the malformed records counted so
    far, atomically (a temp file renamed) after every micro-batch."""

    skipped = 0

    def onQueryStarted(self, event) -> None:
        pass

    def onQueryProgress(self, event) -> None:
        progress = event.progress
        end = json.loads(progress.sources[0].endOffset or "{}").get(BENCH.input_topic, {})
        observed = progress.observedMetrics.get("bench")
        self.skipped += observed["skipped"] if observed else 0
        state = {
            "consumed": sum(int(v) for v in end.values()),
            "batch": progress.batchId,
            "rows": progress.numInputRows,
            "skipped": self.skipped,
            "durationMs": progress.durationMs,
        }
        write_atomically(PROGRESS_FILE, json.dumps(state))
        if LOG_PROGRESS:
            print(f"progress {json.dumps(state)}", flush=True)

    def onQueryIdle(self, event) -> None:
        pass

    def onQueryTerminated(self, event) -> None:
        pass


def start_query(spark: SparkSession):
    import scoring  # the driver imports it as the workers will (app folder is on sys.path)

    source = (
        spark.readStream.format("kafka")
        .option("kafka.bootstrap.servers", BENCH.bootstrap)
        .option("subscribe", BENCH.input_topic)
        .option("startingOffsets", "earliest")
        .option("minPartitions", str(BENCH.parallelism))
        .option("maxOffsetsPerTrigger", str(MAX_OFFSETS_PER_TRIGGER))
        .option("failOnDataLoss", "true")
        .options(**settings_as_text(CONSUMER))
        .load()
        .select("value", "offset")
    )
    scored = source.mapInArrow(scoring.score_batches, scoring.OUTPUT_SCHEMA).observe(
        "bench", F.count(F.when(F.col("value").isNull(), 1)).alias("skipped")
    )
    return (
        scored.where(F.col("value").isNotNull())
        .writeStream.format("kafka")
        .option("kafka.bootstrap.servers", BENCH.bootstrap)
        .option("topic", BENCH.output_topic)
        .options(**settings_as_text(PRODUCER))
        .option("checkpointLocation", CHECKPOINT)
        # Offset and commit logs written beside the batches, not between them (stateless
        # Kafka-to-Kafka queries only): a restart re-runs what was not yet logged.
        .option("asyncProgressTrackingEnabled", "true")
        .option("asyncProgressTrackingCheckpointIntervalMs", "1000")
        .trigger(processingTime=TRIGGER)
        .queryName("bench-spark")
        .start()
    )


def main() -> None:
    stop = stop_event(signals=(signal.SIGTERM,))
    spark = session()
    spark.sparkContext.addPyFile(os.path.join(APP_DIR, "scoring.py"))
    spark.streams.addListener(Progress())
    query = start_query(spark)
    announce_ready(f"master={MASTER} app={spark.sparkContext.applicationId} trigger={TRIGGER} maxOffsetsPerTrigger={MAX_OFFSETS_PER_TRIGGER}")
    while not stop.wait(1.0):
        if not query.isActive:
            print(f"query ended: {query.exception()}", file=sys.stderr, flush=True)
            sys.exit(1)
    # The JVM shares the process group, so it may be shutting down already: stop what is left.
    for step in (query.stop, spark.stop):
        try:
            step()
        except Exception as error:  # noqa: BLE001 - a JVM already gone is the expected case
            print(f"stop: {type(error).__name__}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
