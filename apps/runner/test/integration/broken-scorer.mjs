// A deliberately broken product for the verification-gate test: it republishes every record
// with the right event id and a wrong risk (always 0.5).
import rdkafka from "@confluentinc/kafka-javascript";

const env = process.env;
const consumer = new rdkafka.KafkaConsumer(
  { "metadata.broker.list": env.BENCH_BOOTSTRAP, "group.id": env.BENCH_GROUP_ID, "enable.auto.commit": true },
  { "auto.offset.reset": "earliest" },
);
const producer = new rdkafka.Producer({ "metadata.broker.list": env.BENCH_BOOTSTRAP });
await new Promise((resolve, reject) => producer.connect({}, (err) => (err ? reject(err) : resolve())));
await new Promise((resolve, reject) => consumer.connect({}, (err) => (err ? reject(err) : resolve())));
producer.setPollInterval(50);
consumer.subscribe([env.BENCH_INPUT_TOPIC]);
console.log("BENCH_READY broken scorer");
consumer.on("data", (m) => {
  const record = JSON.parse(m.value.toString());
  producer.produce(env.BENCH_OUTPUT_TOPIC, 0, Buffer.from(JSON.stringify({ event_id: record.event_id, ts_ms: record.ts_ms, risk: 0.5 })));
});
consumer.consume();
process.on("SIGTERM", () => process.exit(0));
