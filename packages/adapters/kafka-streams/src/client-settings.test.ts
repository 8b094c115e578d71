import { KAFKA_SETTINGS, parseJavaClientConfigs, type KafkaSettings } from "@bench/core";
import { javaClientEnv, javaClientMismatches, javaClientSettings } from "./client-settings.ts";
import { DEVIATIONS } from "./product.ts";

describe("the shared Kafka settings under the Java client's names", () => {
  it("renames the fetch numbers and keeps the producer's, leaving out the prefetch queue", () => {
    expect(javaClientSettings(KAFKA_SETTINGS)).toEqual({
      consumer: { "fetch.min.bytes": 65536, "fetch.max.wait.ms": 10, "max.partition.fetch.bytes": 52428800 },
      producer: { acks: "all", "enable.idempotence": true, "compression.type": "lz4", "linger.ms": 5 },
      unmapped: ["consumer queued.max.messages.kbytes=2097151", "consumer queued.min.messages=500000"],
    });
  });

  it("follows the shared settings rather than copying them", () => {
    const changed: KafkaSettings = {
      consumer: { ...KAFKA_SETTINGS.consumer, "fetch.wait.max.ms": 25 },
      producer: { ...KAFKA_SETTINGS.producer, "linger.ms": 0 },
    };
    const mapped = javaClientSettings(changed);
    expect(mapped.consumer["fetch.max.wait.ms"]).toBe(25);
    expect(mapped.producer["linger.ms"]).toBe(0);
  });

  it("hands the app one JSON variable with both clients' settings", () => {
    const env = javaClientEnv(KAFKA_SETTINGS);
    expect(Object.keys(env)).toEqual(["BENCH_JAVA_CLIENT"]);
    expect(JSON.parse(env.BENCH_JAVA_CLIENT as string)).toEqual(
      { consumer: javaClientSettings(KAFKA_SETTINGS).consumer, producer: javaClientSettings(KAFKA_SETTINGS).producer },
    );
  });

  it("states every setting it leaves out as a deviation", () => {
    for (const line of javaClientSettings(KAFKA_SETTINGS).unmapped) expect(DEVIATIONS[0]).toContain(line);
  });
});

/** A log as the Java client writes it at INFO: "<Kind>Config values: " then a tab-indented line per setting. */
function loggedConfig(kind: "Consumer" | "Producer", values: Record<string, string>): string {
  return [
    `12:00:00.000 [main] INFO org.apache.kafka.clients.${kind.toLowerCase()}.${kind}Config - ${kind}Config values: `,
    ...Object.entries(values).map(([k, v]) => `\t${k} = ${v}`),
    "",
    "12:00:00.001 [main] INFO next line",
  ].join("\n");
}

const goodConsumer = { "fetch.min.bytes": "65536", "fetch.max.wait.ms": "10", "max.partition.fetch.bytes": "52428800", "max.poll.records": "1000" };
const goodProducer = { acks: "-1", "enable.idempotence": "true", "compression.type": "lz4", "linger.ms": "5", "batch.size": "16384" };

describe("javaClientMismatches", () => {
  it("passes main and restore consumers and the producer that run the shared settings (acks=all logged as -1)", () => {
    const log = [loggedConfig("Consumer", goodConsumer), loggedConfig("Producer", goodProducer), loggedConfig("Consumer", goodConsumer)].join("\n");
    expect(javaClientMismatches(parseJavaClientConfigs(log), KAFKA_SETTINGS)).toEqual([]);
  });

  it("names each client and setting that differs", () => {
    const log = [
      loggedConfig("Consumer", goodConsumer),
      loggedConfig("Consumer", { ...goodConsumer, "fetch.max.wait.ms": "500" }),
      loggedConfig("Producer", { ...goodProducer, "linger.ms": "100" }),
    ].join("\n");
    expect(javaClientMismatches(parseJavaClientConfigs(log), KAFKA_SETTINGS)).toEqual(
      ["consumer 2: fetch.max.wait.ms: want 10, got 500", "producer 1: linger.ms: want 5, got 100"],
    );
  });

  it("fails a log without a consumer or a producer configuration", () => {
    expect(
      javaClientMismatches(parseJavaClientConfigs(loggedConfig("Consumer", goodConsumer)), KAFKA_SETTINGS),
    ).toEqual(["no Java producer configuration in the log"]);
    expect(javaClientMismatches([], KAFKA_SETTINGS)).toEqual(["no Java consumer configuration in the log", "no Java producer configuration in the log"]);
  });
});
