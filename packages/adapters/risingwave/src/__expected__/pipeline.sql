SET streaming_parallelism = 2;

SET streaming_use_shared_source = false;

CREATE SOURCE bench_rw_test_1_src (
  event_id VARCHAR,
  ts_ms BIGINT,
  latency_ms DOUBLE PRECISION,
  queue_depth DOUBLE PRECISION,
  cpu_usage DOUBLE PRECISION,
  error_count DOUBLE PRECISION
) WITH (
  connector = 'kafka',
  topic = 'rw-test-in',
  properties.bootstrap.server = '127.0.0.1:19092',
  scan.startup.mode = 'earliest',
  properties.fetch.min.bytes = '65536',
  properties.fetch.wait.max.ms = '10',
  properties.fetch.message.max.bytes = '52428800',
  properties.queued.max.messages.kbytes = '2097151',
  properties.queued.min.messages = '500000'
) FORMAT PLAIN ENCODE JSON;

CREATE FUNCTION bench_rw_test_1_risk(DOUBLE PRECISION, DOUBLE PRECISION, DOUBLE PRECISION, DOUBLE PRECISION) RETURNS DOUBLE PRECISION
AS risk USING LINK 'http://127.0.0.1:8815'
WITH ( always_retry_on_network_error = true );

CREATE SINK bench_rw_test_1_sink AS
SELECT event_id, ts_ms, bench_rw_test_1_risk(latency_ms, queue_depth, cpu_usage, error_count) AS risk
FROM bench_rw_test_1_src
WHERE event_id IS NOT NULL AND ts_ms IS NOT NULL
  AND abs(latency_ms) < 1e308 AND abs(queue_depth) < 1e308 AND abs(cpu_usage) < 1e308 AND abs(error_count) < 1e308
WITH (
  connector = 'kafka',
  topic = 'rw-test-out',
  properties.bootstrap.server = '127.0.0.1:19092',
  properties.enable.idempotence = 'true',
  properties.compression.codec = 'lz4'
) FORMAT PLAIN ENCODE JSON (force_append_only = 'true');
