/**
 * The SQL the adapter issues to RisingWave, built by one pure function so that a unit test can
 * hold it against a committed expectation (src/__expected__/pipeline.sql).
 *
 * Shape: a Kafka source (JSON, only the six fields the model and the output need) -> the
 * external UDF `risk` (the Arrow Flight server in app/main.py) -> an append-only Kafka
 * sink. No materialised view: nothing is stored but the source offsets and the sink's log
 * store, which RisingWave checkpoints together (at-least-once; the decoupled sink replays its
 * log store after a recovery).
 */
import { KAFKA_SETTINGS, type ClientSettings, type SettingValue } from "@bench/core";

export interface PipelineSpec {
  /** Broker address as RisingWave sees it. */
  bootstrap: string;
  inputTopic: string;
  outputTopic: string;
  /** Stream actors per fragment: SET streaming_parallelism. */
  parallelism: number;
  /** The UDF server's address as RisingWave's compute node sees it, e.g. http://127.0.0.1:8815. */
  udfLink: string;
  /** Prefix that makes this run's objects unique in a shared RisingWave. */
  prefix: string;
}

export interface PipelineNames {
  source: string;
  func: string;
  sink: string;
}

export function pipelineNames(prefix: string): PipelineNames {
  const safe = prefix.toLowerCase().replace(/[^a-z0-9_]/g, "_");
  return { source: `${safe}_src`, func: `${safe}_risk`, sink: `${safe}_sink` };
}

/**
 * The shared client settings (core's KAFKA_SETTINGS) under the names RisingWave's Kafka
 * connector accepts (RdKafkaPropertiesConsumer / RdKafkaPropertiesProducer); null where it
 * takes no such property. max.partition.fetch.bytes is librdkafka's alias of
 * fetch.message.max.bytes, the name RisingWave takes; properties.fetch.min.bytes and
 * properties.fetch.message.max.bytes arrived in RisingWave 2.4 (PR 21080), older servers refuse
 * the source. The sink cannot name acks or linger.ms: librdkafka's idempotent producer forces
 * acks=all, and its linger default (5 ms) is the shared value (LIBRDKAFKA_DEFAULTS holds both,
 * and a test holds them against the shared settings).
 */
const RISINGWAVE_NAMES: Readonly<Record<string, string | null>> = {
  "fetch.min.bytes": "properties.fetch.min.bytes",
  "fetch.wait.max.ms": "properties.fetch.wait.max.ms",
  "max.partition.fetch.bytes": "properties.fetch.message.max.bytes",
  "queued.max.messages.kbytes": "properties.queued.max.messages.kbytes",
  "queued.min.messages": "properties.queued.min.messages",
  "enable.idempotence": "properties.enable.idempotence",
  "compression.type": "properties.compression.codec",
  acks: null,
  "linger.ms": null,
};

/** What librdkafka does with the settings the sink cannot name. */
export const LIBRDKAFKA_DEFAULTS: Readonly<Record<string, SettingValue>> = { acks: "all", "linger.ms": 5 };

export function connectorProperties(settings: ClientSettings): Array<readonly [string, string]> {
  return Object.entries(settings).flatMap(([name, value]) => {
    const property = RISINGWAVE_NAMES[name];
    if (property === undefined) throw new Error(`no RisingWave name for the shared Kafka setting ${name}`);
    return property === null ? [] : [[property, String(value)] as const];
  });
}

export const SOURCE_FETCH_PROPERTIES = connectorProperties(KAFKA_SETTINGS.consumer);
export const SINK_PRODUCER_PROPERTIES = connectorProperties(KAFKA_SETTINGS.producer);

/** The UDF's argument types: app/main.py declares FLOAT64 for all four. */
const UDF_ARGS = "DOUBLE PRECISION, DOUBLE PRECISION, DOUBLE PRECISION, DOUBLE PRECISION";

const quote = (value: string): string => `'${value.replace(/'/g, "''")}'`;

function withClause(entries: ReadonlyArray<readonly [string, string]>): string {
  return entries.map(([k, v]) => `  ${k} = ${quote(v)}`).join(",\n");
}

const VALID_RECORD = [
  "WHERE event_id IS NOT NULL AND ts_ms IS NOT NULL",
  "  AND abs(latency_ms) < 1e308 AND abs(queue_depth) < 1e308 AND abs(cpu_usage) < 1e308 AND abs(error_count) < 1e308",
].join("\n");

/** Statements in execution order; each is sent on its own. */
export function pipelineSql(spec: PipelineSpec): string[] {
  if (!Number.isInteger(spec.parallelism) || spec.parallelism < 1) throw new Error(`parallelism must be a positive integer, got ${spec.parallelism}`);
  const n = pipelineNames(spec.prefix);
  return [
    // Per-session settings: they shape the jobs created below in this session.
    `SET streaming_parallelism = ${spec.parallelism}`,
    // A non-shared source: the sink's own job runs the Kafka reader, so its offsets live in
    // that job's source state table (read as the engine counter) and no backfill stage sits
    // between the topic and the UDF.
    "SET streaming_use_shared_source = false",
    [
      `CREATE SOURCE ${n.source} (`,
      "  event_id VARCHAR,",
      "  ts_ms BIGINT,",
      "  latency_ms DOUBLE PRECISION,",
      // Every metric as DOUBLE PRECISION: RisingWave's JSON parser reads a JSON float (24.0, 6.31E2)
      // into an INT column as NULL, and a producer may write an integer either way (the gate's
      // spelling cases integer-float-forms and exponent-numbers).
      "  queue_depth DOUBLE PRECISION,",
      "  cpu_usage DOUBLE PRECISION,",
      "  error_count DOUBLE PRECISION",
      ") WITH (",
      withClause([
        ["connector", "kafka"],
        ["topic", spec.inputTopic],
        ["properties.bootstrap.server", spec.bootstrap],
        ["scan.startup.mode", "earliest"],
        ...SOURCE_FETCH_PROPERTIES,
      ]),
      ") FORMAT PLAIN ENCODE JSON",
    ].join("\n"),
    [
      // The documented external-UDF form has no LANGUAGE clause: with `LANGUAGE python` the
      // frontend takes the embedded-Python path and refuses it unless
      // enable_embedded_python_udf is on, before it looks at the link.
      `CREATE FUNCTION ${n.func}(${UDF_ARGS}) RETURNS DOUBLE PRECISION`,
      `AS risk USING LINK ${quote(spec.udfLink)}`,
      // Without it a failed call (server restarting, a dropped connection) is logged and the
      // whole chunk gets NULL risk while its records still count as consumed; with it the
      // actor retries the call until the server answers (the option of RisingWave's own
      // e2e_test/udf retry test: WITH ( always_retry_on_network_error = true )).
      "WITH ( always_retry_on_network_error = true )",
    ].join("\n"),
    [
      `CREATE SINK ${n.sink} AS`,
      `SELECT event_id, ts_ms, ${n.func}(latency_ms, queue_depth, cpu_usage, error_count) AS risk`,
      `FROM ${n.source}`,
      // RisingWave's JSON parser skips a message that is not a JSON object and leaves a field
      // of the wrong type NULL: a malformed record is then dropped here, not scored. 1e999
      // parses as Infinity in a DOUBLE. Skipped = consumed - output.
      VALID_RECORD,
      "WITH (",
      withClause([
        ["connector", "kafka"],
        ["topic", spec.outputTopic],
        ["properties.bootstrap.server", spec.bootstrap],
        ...SINK_PRODUCER_PROPERTIES,
      ]),
      ") FORMAT PLAIN ENCODE JSON (force_append_only = 'true')",
    ].join("\n"),
  ];
}

/** What stop() sends to a RisingWave the adapter does not own (RISINGWAVE_URL), newest first. */
export function teardownSql(prefix: string): string[] {
  const n = pipelineNames(prefix);
  return [`DROP SINK IF EXISTS ${n.sink}`, `DROP FUNCTION IF EXISTS ${n.func}(${UDF_ARGS})`, `DROP SOURCE IF EXISTS ${n.source}`];
}
