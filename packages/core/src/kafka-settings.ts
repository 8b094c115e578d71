/**
 * The Kafka client settings every row shares, written once. The runner hands them to each app
 * (RunContext.kafka -> BENCH_KAFKA_CONSUMER / BENCH_KAFKA_PRODUCER as JSON), the page's prose is
 * rendered from them, and the integration tests hold each app's effective settings against
 * them. Names are librdkafka's; where a Java client or another framework needs its own names,
 * the app maps them, and a row that cannot follow says so in its deviations.
 */

export type SettingValue = string | number | boolean;
export type ClientSettings = Readonly<Record<string, SettingValue>>;

export interface KafkaSettings {
  /** Fetch and prefetch-queue numbers for librdkafka consumers (the ones Turbine's core hard-codes). */
  consumer: ClientSettings;
  /** Delivery and batching for every producer of scored records (and gendata's). */
  producer: ClientSettings;
}

export const KAFKA_SETTINGS: KafkaSettings = {
  consumer: {
    "fetch.min.bytes": 65536,
    "fetch.wait.max.ms": 10,
    "max.partition.fetch.bytes": 52428800,
    "queued.max.messages.kbytes": 2097151,
    "queued.min.messages": 500000,
  },
  producer: {
    acks: "all",
    "enable.idempotence": true,
    "compression.type": "lz4",
    "linger.ms": 5,
  },
};

/** The variables an app reads its client settings from (JSON objects of librdkafka keys). */
export function kafkaSettingsEnv(settings: KafkaSettings): Record<string, string> {
  return { BENCH_KAFKA_CONSUMER: JSON.stringify(settings.consumer), BENCH_KAFKA_PRODUCER: JSON.stringify(settings.producer) };
}

/** librdkafka reports a property under its canonical name (alias -> canonical). */
const CANONICAL: Readonly<Record<string, string>> = {
  "max.partition.fetch.bytes": "fetch.message.max.bytes",
  "linger.ms": "queue.buffering.max.ms",
  "compression.type": "compression.codec",
  acks: "request.required.acks",
};

/** ...and some values as numbers ("all" is -1). */
const CANONICAL_VALUES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  "request.required.acks": { all: "-1" },
};

/** A shared setting as the effective configuration names it: [name, value as text]. */
type Naming = (name: string, value: SettingValue) => [string, string];

const canonical: Naming = (name, value) => {
  const key = CANONICAL[name] ?? name;
  const text = String(value);
  return [key, CANONICAL_VALUES[key]?.[text] ?? text];
};

/** The Java client takes librdkafka's names for the shared producer settings; it logs acks=all as -1. */
const javaNaming: Naming = (name, value) => [name, name === "acks" && value === "all" ? "-1" : String(value)];

export interface DumpedClient {
  /** From librdkafka's client name (rdkafka#consumer-1); admin clients are producers to librdkafka. */
  kind: "consumer" | "producer" | "unknown";
  config: Record<string, string>;
}

/**
 * The configurations librdkafka prints when a client is created with debug=conf, one per
 * client in order of creation ("Client configuration:" and "Default topic configuration:"
 * merged), keyed by librdkafka's canonical property names. Reads both librdkafka's own stderr
 * format (the client's name on every line) and a binding's log events (the name on the INIT
 * line before the dump).
 */
export function parseConfDump(log: string): DumpedClient[] {
  const clients: DumpedClient[] = [];
  let current: DumpedClient | undefined;
  let lastKind: DumpedClient["kind"] = "unknown";
  for (const line of log.split("\n")) {
    const kind = /rdkafka#(consumer|producer)-\d+/.exec(line)?.[1] as DumpedClient["kind"] | undefined;
    if (/Client configuration:\s*$/.test(line)) {
      current = { kind: kind ?? lastKind, config: {} };
      clients.push(current);
      continue;
    }
    if (kind) lastKind = kind;
    if (/Default topic configuration:\s*$/.test(line)) continue;
    const entry = /CONF\b.*?:\s{2,}([a-z0-9_.]+) = (.*)$/.exec(line);
    if (entry && current) current.config[entry[1] as string] = (entry[2] as string).trim();
  }
  return clients;
}

/** What an effective configuration gets wrong against the shared settings ("name: want X, got Y"). */
export function settingsMismatches(expected: ClientSettings, effective: Readonly<Record<string, string>>, naming: Naming = canonical): string[] {
  const wrong: string[] = [];
  for (const [name, value] of Object.entries(expected)) {
    const [key, want] = naming(name, value);
    const got = effective[key];
    if (got !== want) wrong.push(`${name}: want ${want}, got ${got ?? "unset"}`);
  }
  return wrong;
}

/**
 * Every consumer in a debug=conf log held against the shared consumer settings, every producer
 * that was given any shared producer setting against all of them (an admin client is a
 * producer to librdkafka and gets none); an empty list means they all match. A log with no
 * consumer or no such producer is a mismatch too, so a missing dump cannot pass.
 */
export function effectiveSettingsMismatches(log: string, settings: KafkaSettings): string[] {
  const clients = parseConfDump(log);
  const producerKeys = Object.entries(settings.producer).map(([name, value]) => canonical(name, value)[0]);
  const consumers = clients.filter((c) => c.kind === "consumer");
  const producers = clients.filter((c) => c.kind === "producer" && producerKeys.some((k) => k in c.config));
  const wrong = [
    ...consumers.flatMap((c, i) => settingsMismatches(settings.consumer, c.config).map((m) => `consumer ${i + 1}: ${m}`)),
    ...producers.flatMap((c, i) => settingsMismatches(settings.producer, c.config).map((m) => `producer ${i + 1}: ${m}`)),
  ];
  if (consumers.length === 0) wrong.push("no consumer configuration in the log (is debug=conf set?)");
  if (producers.length === 0) wrong.push("no producer configuration in the log (is debug=conf set?)");
  return wrong;
}

/**
 * The configurations the Java Kafka client logs at INFO when a client is created
 * ("ProducerConfig values:" then one "\tname = value" line each; Flink's connector shades the
 * classes, the text is the same), in order of creation.
 */
export function parseJavaClientConfigs(log: string): DumpedClient[] {
  const clients: DumpedClient[] = [];
  let current: DumpedClient | undefined;
  for (const line of log.split("\n")) {
    const start = /\b(Producer|Consumer)Config values:\s*$/.exec(line);
    if (start) {
      current = { kind: start[1] === "Producer" ? "producer" : "consumer", config: {} };
      clients.push(current);
      continue;
    }
    const entry = /^\t([a-z0-9_.]+) = (.*)$/.exec(line);
    if (entry && current) current.config[entry[1] as string] = (entry[2] as string).trim();
    else current = undefined;
  }
  return clients;
}

/**
 * Every Java producer in a log held against the shared producer settings. A log with no
 * producer configuration is a mismatch, so a missing log cannot pass.
 */
export function javaProducerMismatches(log: string, producer: ClientSettings): string[] {
  const producers = parseJavaClientConfigs(log).filter((c) => c.kind === "producer");
  if (producers.length === 0) return ["no Java ProducerConfig in the log (is the client's INFO logging on?)"];
  return producers.flatMap((c, i) => settingsMismatches(producer, c.config, javaNaming).map((m) => `producer ${i + 1}: ${m}`));
}

/** The page's line on consumer fetch settings, rendered from the values themselves. */
export function consumerSettingsProse(consumer: ClientSettings): string {
  const n = (name: string): number => Number(consumer[name]);
  const bytes = (b: number): string => (b >= 1 << 20 ? `${Math.round(b / (1 << 20))} MB` : `${Math.round(b / 1024)} KB`);
  const messages = n("queued.min.messages");
  const count = messages >= 1000 ? `${Math.round(messages / 1000)}k` : String(messages);
  return (
    `fetch.min.bytes=${bytes(n("fetch.min.bytes"))}, fetch.wait.max.ms=${n("fetch.wait.max.ms")}, ` +
    `max.partition.fetch.bytes=${bytes(n("max.partition.fetch.bytes"))} and a ${count}-message / ~${Math.round(n("queued.max.messages.kbytes") / (1 << 20))} ` +
    `GB prefetch queue`
  );
}
