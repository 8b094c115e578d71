import {
  consumerSettingsProse,
  effectiveSettingsMismatches,
  javaProducerMismatches,
  KAFKA_SETTINGS,
  kafkaSettingsEnv,
  parseConfDump,
  parseJavaClientConfigs,
  settingsMismatches,
} from "./kafka-settings.ts";

// What librdkafka 2.15 printed for a consumer and a producer created with debug=conf.
const DUMP = `LOG INIT [thrd:app]: librdkafka v2.15.1 (0x20f01ff) rdkafka#consumer-1 initialized
LOG CONF [thrd:app]: Client configuration:
LOG CONF [thrd:app]:   client.software.name = confluent-kafka-javascript
LOG CONF [thrd:app]:   group.id = g
LOG CONF [thrd:app]:   queued.min.messages = 500000
LOG CONF [thrd:app]:   queued.max.messages.kbytes = 2097151
LOG CONF [thrd:app]:   fetch.wait.max.ms = 10
LOG CONF [thrd:app]:   fetch.message.max.bytes = 52428800
LOG CONF [thrd:app]:   fetch.min.bytes = 65536
LOG CONF [thrd:app]: Default topic configuration:
LOG CONF [thrd:app]:   auto.offset.reset = smallest
LOG INIT [thrd:app]: librdkafka v2.15.1 rdkafka#producer-2 initialized
LOG CONF [thrd:app]: Client configuration:
LOG CONF [thrd:app]:   enable.idempotence = true
LOG CONF [thrd:app]:   queue.buffering.max.ms = 5
LOG CONF [thrd:app]:   compression.codec = lz4
LOG CONF [thrd:app]: Default topic configuration:
LOG CONF [thrd:app]:   request.required.acks = -1`;

describe("the shared Kafka settings", () => {
  it("reads one configuration per client from librdkafka's debug=conf dump", () => {
    const [consumer, producer] = parseConfDump(DUMP).map((c) => c.config);
    expect(parseConfDump(DUMP).map((c) => c.kind)).toEqual(["consumer", "producer"]);
    expect(consumer).toMatchObject({ "group.id": "g", "fetch.message.max.bytes": "52428800", "auto.offset.reset": "smallest" });
    expect(producer).toEqual({ "enable.idempotence": "true", "queue.buffering.max.ms": "5", "compression.codec": "lz4", "request.required.acks": "-1" });
  });

  it("holds librdkafka's canonical names and values against the shared ones", () => {
    const [consumer, producer] = parseConfDump(DUMP).map((c) => c.config);
    expect(settingsMismatches(KAFKA_SETTINGS.consumer, consumer as Record<string, string>)).toEqual([]);
    expect(settingsMismatches(KAFKA_SETTINGS.producer, producer as Record<string, string>)).toEqual([]);
  });

  it("names every setting an app got wrong or left out", () => {
    const [, producer] = parseConfDump(
      DUMP.replace("compression.codec = lz4", "compression.codec = none").replace(/.*queue.buffering.max.ms.*\n/, ""),
    ).map((c) => c.config);
    expect(settingsMismatches(KAFKA_SETTINGS.producer, producer as Record<string, string>)).toEqual([
      "compression.type: want lz4, got none",
      "linger.ms: want 5, got unset",
    ]);
  });

  it("reads librdkafka's own stderr format (confluent-kafka-python without a logger), where every line names its client", () => {
    const stderr = [
      "%7|1764563000.001|CONF|rdkafka#producer-1| [thrd:app]: Client configuration:",
      "%7|1764563000.001|CONF|rdkafka#producer-1| [thrd:app]:   client.software.name = confluent-kafka-python",
      "%7|1764563000.002|CONF|rdkafka#consumer-2| [thrd:app]: Client configuration:",
      "%7|1764563000.002|CONF|rdkafka#consumer-2| [thrd:app]:   fetch.min.bytes = 1",
    ].join("\n");
    expect(parseConfDump(stderr)).toEqual([
      { kind: "producer", config: { "client.software.name": "confluent-kafka-python" } },
      { kind: "consumer", config: { "fetch.min.bytes": "1" } },
    ]);
  });

  it("passes a log whose every client follows the shared settings, and fails one without a dump", () => {
    expect(effectiveSettingsMismatches(DUMP, KAFKA_SETTINGS)).toEqual([]);
    expect(effectiveSettingsMismatches("BENCH_READY", KAFKA_SETTINGS)).toEqual([
      "no consumer configuration in the log (is debug=conf set?)",
      "no producer configuration in the log (is debug=conf set?)",
    ]);
    expect(effectiveSettingsMismatches(DUMP.replace("fetch.wait.max.ms = 10", "fetch.wait.max.ms = 500"), KAFKA_SETTINGS)).toEqual([
      "consumer 1: fetch.wait.max.ms: want 10, got 500",
    ]);
  });

  it("reads the Java client's logged configurations (Flink's shaded client) and holds its producers against the shared settings", () => {
    const javaLog = [
      "2026-12-01 10:00:00,000 INFO  org.apache.flink.kafka.shaded.org.apache.kafka.clients.consumer.ConsumerConfig [] - ConsumerConfig values: ",
      "\tfetch.min.bytes = 1",
      "\tgroup.id = bench.flink",
      "2026-12-01 10:00:01,000 INFO  org.apache.flink.kafka.shaded.org.apache.kafka.clients.producer.ProducerConfig [] - ProducerConfig values: ",
      "\tacks = -1",
      "\tcompression.type = lz4",
      "\tenable.idempotence = true",
      "\tlinger.ms = 5",
      "2026-12-01 10:00:01,100 INFO  org.apache.flink.kafka.shaded.org.apache.kafka.common.utils.AppInfoParser [] - Kafka version: 3.9.0",
    ].join("\n");
    expect(parseJavaClientConfigs(javaLog)).toEqual([
      { kind: "consumer", config: { "fetch.min.bytes": "1", "group.id": "bench.flink" } },
      { kind: "producer", config: { acks: "-1", "compression.type": "lz4", "enable.idempotence": "true", "linger.ms": "5" } },
    ]);
    expect(javaProducerMismatches(javaLog, KAFKA_SETTINGS.producer)).toEqual([]);
    expect(
      javaProducerMismatches(javaLog.replace("linger.ms = 5", "linger.ms = 0"), KAFKA_SETTINGS.producer),
    ).toEqual(["producer 1: linger.ms: want 5, got 0"]);
    expect(javaProducerMismatches("no config here", KAFKA_SETTINGS.producer)).toEqual(["no Java ProducerConfig in the log (is the client's INFO logging on?)"]);
  });

  it("hands the apps JSON they can read back into the same values", () => {
    const env = kafkaSettingsEnv(KAFKA_SETTINGS);
    expect(JSON.parse(env.BENCH_KAFKA_CONSUMER as string)).toEqual(KAFKA_SETTINGS.consumer);
    expect(JSON.parse(env.BENCH_KAFKA_PRODUCER as string)).toEqual(KAFKA_SETTINGS.producer);
  });

  it("renders the page's prose from the values", () => {
    expect(consumerSettingsProse(KAFKA_SETTINGS.consumer)).toBe(
      "fetch.min.bytes=64 KB, fetch.wait.max.ms=10, max.partition.fetch.bytes=50 MB and a 500k-message / ~2 GB prefetch queue",
    );
  });
});
