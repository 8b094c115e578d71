// A product that passes the verification gate and then goes wrong: it scores the first
// SCORE_RIGHT_FOR records with the reference model and publishes a constant risk after that.
// The gate alone cannot catch it; the audit must, and the run must not count as a result.
import rdkafka from "@confluentinc/kafka-javascript";
import { modelsDir, normalise, ReferenceModel, type InputRecord } from "@bench/core";

const env = process.env;
const rightFor = Number(env.SCORE_RIGHT_FOR);
const model = await ReferenceModel.load(modelsDir());
const consumer = new rdkafka.KafkaConsumer(
  { "metadata.broker.list": env.BENCH_BOOTSTRAP as string, "group.id": env.BENCH_GROUP_ID as string, "enable.auto.commit": true },
  { "auto.offset.reset": "earliest" },
);
const producer = new rdkafka.Producer({ "metadata.broker.list": env.BENCH_BOOTSTRAP as string });
await new Promise<void>((resolve, reject) => producer.connect({}, (err) => (err ? reject(err) : resolve())));
await new Promise<void>((resolve, reject) => consumer.connect({}, (err) => (err ? reject(err) : resolve())));
producer.setPollInterval(50);
consumer.subscribe([env.BENCH_INPUT_TOPIC as string]);
console.log("BENCH_READY late wrong scorer");
let seen = 0;
consumer.on("data", (m) => {
  const record = JSON.parse((m.value as Buffer).toString()) as InputRecord;
  const risk = ++seen <= rightFor ? model.score(Float32Array.from(normalise(record))).then((r) => r[0] as number) : Promise.resolve(0.5);
  void risk.then((value) =>
    producer.produce(env.BENCH_OUTPUT_TOPIC as string, 0, Buffer.from(JSON.stringify({ event_id: record.event_id, ts_ms: record.ts_ms, risk: value }))),
  );
});
consumer.consume();
process.on("SIGTERM", () => process.exit(0));
