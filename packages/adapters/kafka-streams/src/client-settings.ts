/**
 * The shared Kafka client settings (core's KAFKA_SETTINGS, librdkafka's names) under the Java
 * client's names, for the Streams app's consumers and producer. A setting with no Java
 * equivalent is left out and stated as a deviation, from this same table, so the two cannot
 * disagree.
 */
import type { ClientSettings, KafkaSettings, SettingValue } from "@bench/core";

/** librdkafka name -> Java client name, where the Java client has the same knob. */
export const JAVA_CONSUMER_NAMES: Readonly<Record<string, string>> = {
  "fetch.min.bytes": "fetch.min.bytes",
  "fetch.wait.max.ms": "fetch.max.wait.ms",
  "max.partition.fetch.bytes": "max.partition.fetch.bytes",
};

export const JAVA_PRODUCER_NAMES: Readonly<Record<string, string>> = {
  acks: "acks",
  "enable.idempotence": "enable.idempotence",
  "compression.type": "compression.type",
  "linger.ms": "linger.ms",
};

export interface JavaClientSettings {
  consumer: Record<string, SettingValue>;
  producer: Record<string, SettingValue>;
  /** Shared settings with no Java equivalent, as "consumer queued.min.messages=500000". */
  unmapped: string[];
}

function rename(
  kind: "consumer" | "producer",
  settings: ClientSettings,
  names: Readonly<Record<string, string>>,
  unmapped: string[],
): Record<string, SettingValue> {
  const out: Record<string, SettingValue> = {};
  for (const [name, value] of Object.entries(settings)) {
    const java = names[name];
    if (java) out[java] = value;
    else unmapped.push(`${kind} ${name}=${String(value)}`);
  }
  return out;
}

export function javaClientSettings(settings: KafkaSettings): JavaClientSettings {
  const unmapped: string[] = [];
  const consumer = rename("consumer", settings.consumer, JAVA_CONSUMER_NAMES, unmapped);
  const producer = rename("producer", settings.producer, JAVA_PRODUCER_NAMES, unmapped);
  return { consumer, producer, unmapped };
}

/** The app's variable: the Java-named settings as one JSON object. */
export function javaClientEnv(settings: KafkaSettings): Record<string, string> {
  const { consumer, producer } = javaClientSettings(settings);
  return { BENCH_JAVA_CLIENT: JSON.stringify({ consumer, producer }) };
}

/** How the Java client logs a value it was given: acks=all as -1, the rest as written. */
function javaLogged(name: string, value: SettingValue): string {
  return name === "acks" && value === "all" ? "-1" : String(value);
}

/**
 * What the Java clients' logged configurations (core's parseJavaClientConfigs) get wrong
 * against the mapped settings, per client kind; a log without a consumer or a producer is a
 * mismatch, so a missing log cannot pass. Streams makes a main and a restore consumer: both are
 * held to the consumer settings.
 */
export function javaClientMismatches(clients: ReadonlyArray<{ kind: string; config: Readonly<Record<string, string>> }>, settings: KafkaSettings): string[] {
  const mapped = javaClientSettings(settings);
  const wrong: string[] = [];
  for (const kind of ["consumer", "producer"] as const) {
    const ofKind = clients.filter((c) => c.kind === kind);
    if (ofKind.length === 0) wrong.push(`no Java ${kind} configuration in the log`);
    ofKind.forEach((c, i) => {
      for (const [name, value] of Object.entries(mapped[kind])) {
        const want = javaLogged(name, value);
        const got = c.config[name];
        if (got !== want) wrong.push(`${kind} ${i + 1}: ${name}: want ${want}, got ${got ?? "unset"}`);
      }
    });
  }
  return wrong;
}
