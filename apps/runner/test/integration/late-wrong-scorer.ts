// A product that passes the verification gate and then goes wrong: it scores the first
// SCORE_RIGHT_FOR records with the reference model; after that it publishes a constant risk
// (GO_WRONG=constant, the default) or, every 1000th record, an output that is not JSON
// (GO_WRONG=unparseable: the closing brace missing, as a hand-written encoder might). The gate
// alone cannot catch it; the audit must, and the run must not count as a result.
import rdkafka from "@confluentinc/kafka-javascript";
import { modelsDir, normalise, ReferenceModel, type InputRecord } from "@bench/core";

const env = process.env;
const rightFor = Number(env.SCORE_RIGHT_FOR);
const unparseable = env.GO_WRONG === "unparseable";
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
  const n = ++seen;
  const right = n <= rightFor || unparseable;
  const risk = right ? model.score(Float32Array.from(normalise(record))).then((r) => r[0] as number) : Promise.resolve(0.5);
  void risk.then((value) => {
    const out = JSON.stringify({ event_id: record.event_id, ts_ms: record.ts_ms, risk: value });
    producer.produce(env.BENCH_OUTPUT_TOPIC as string, 0, Buffer.from(unparseable && n > rightFor && n % 1000 === 0 ? out.slice(0, -1) : out));
  });
});
consumer.consume();
process.on("SIGTERM", () => process.exit(0));
