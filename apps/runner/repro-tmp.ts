import { mkdirSync, mkdtempSync, appendFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import rdkafka from "@confluentinc/kafka-javascript";
import { cacheRoot, KafkaAdmin, KAFKA_SETTINGS, RecordEncoder } from "@bench/core";
import { KafkaBroker } from "./src/broker/kafka-broker.ts";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const dir = mkdtempSync(join(tmpdir(), "repro-"));
const kafkaCache = join(cacheRoot(), "kafka"); mkdirSync(kafkaCache, { recursive: true });
const broker = await KafkaBroker.start({ cacheDir: kafkaCache, logFile: join(dir, "broker.log"), log: console.log });
const admin = await KafkaAdmin.connect(broker.bootstrap);
const dbg = join(dir, "rdkafka.log"); console.log("logs in", dir);
const extra = JSON.parse(process.env.EXTRA ?? "{}");
for (let i = 0; i < Number(process.env.N ?? 6); i++) {
const hard = process.env.HARD === "alt" ? i % 2 === 0 : false; const topic = `t${i}`;
await admin.createTopics([{ name: topic }]);
const p = new rdkafka.Producer({ "metadata.broker.list": broker.bootstrap, "client.id": "gendata", ...KAFKA_SETTINGS.producer, "statistics.interval.ms": 1000, dr_cb: false,
  debug: process.env.DBG ?? "eos,broker,topic,metadata", "queue.buffering.max.messages": 1000000, ...extra } as any);
let acked = 0; let errors = 0;
p.on("event.stats", (e: any) => { const s = JSON.parse(e.message); const a = s.topics?.[topic]?.partitions?.["0"]?.acked_msgid; if (a !== undefined) acked = a; });
p.on("event.log", (l: any) => appendFileSync(dbg, `${Date.now()} ${i} ${l.fac} ${l.message}\n`));
p.on("event.error", (e: any) => { errors++; appendFileSync(dbg, `${Date.now()} ${i} ERROR ${e.message}\n`); });
await new Promise<void>((res) => { p.once("ready", () => res()); p.connect(); });
p.setPollInterval(100);
const enc = new RecordEncoder(7); let seq = 0;
const iv = setInterval(() => { for (let k = 0; k < 100; k++) { const { key, value } = enc.encode(seq++, Date.now()); p.produce(topic, 0, Buffer.from(value), key, Date.now()); } }, 100);
await sleep(15000);
  await broker.restart({ hard, downMs: 5000 });
  const back = seq; const t0 = Date.now();
  while (acked <= back + 2000 && Date.now() - t0 < 60000) await sleep(250);
  console.log(`run ${i} ${hard ? "hard" : "clean"}: acked ${acked} sent-when-back ${back} errors ${errors} ${acked > back + 2000 ? "RESUMED" : "STUCK"} after ${(Date.now() - t0) / 1000}s`);
  appendFileSync(dbg, `${Date.now()} ===== run ${i} ${acked > back ? "RESUMED" : "STUCK"}\n`);
clearInterval(iv); await new Promise<void>((r) => p.disconnect(() => r()));
  if (acked <= back + 2000) break;
}
await admin.close(); await broker.stop(); process.exit(0);
