/**
 * Is gendata ever the bottleneck? Measures its highest rate and CPU per record against Kafka's
 * own ProducerPerformance, on the same broker, with the same records (a payload file of gendata's
 * own JSON) and the same settings (lz4, acks=all, idempotent, linger 5 ms).
 *
 *   pnpm --filter runner exec tsx src/tools/gendata-yardstick.ts --bootstrap 127.0.0.1:9092 [--seconds 15]
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command } from "commander";
import { execa } from "execa";
import { cacheRoot, CLOCK_TICKS, KafkaAdmin, readStat, RecordEncoder } from "@bench/core";
import { kafkaClasspath } from "../broker/kafka-broker.ts";
import { GendataProcess } from "../run/gendata-process.ts";

const opts = new Command("gendata-yardstick")
  .requiredOption("--bootstrap <host:port>")
  .option("--seconds <n>", "how long each producer runs", "15")
  .parse()
  .opts<{ bootstrap: string; seconds: string }>();
const seconds = Number(opts.seconds);
const dir = mkdtempSync(join(tmpdir(), "yardstick-"));
const admin = await KafkaAdmin.connect(opts.bootstrap);
const topics = [`yardstick.gendata.${Date.now()}`, `yardstick.perf.${Date.now()}`] as const;
await admin.createTopics(topics.map((name) => ({ name })));

/** CPU seconds (utime+stime) of a process, from /proc. */
const cpuOf = (pid: number): number => (readStat(pid)?.cpuTicks ?? 0) / CLOCK_TICKS;

// gendata asked for far more than it can do: what it reaches is its ceiling.
const gendata = new GendataProcess({ bootstrap: opts.bootstrap, topic: topics[0], rate: 5_000_000, seed: 42, startSeq: 0, logFile: join(dir, "gendata.log") });
await new Promise((r) => setTimeout(r, 3000)); // skip start-up (pool building)
const g0 = gendata.latest();
await new Promise((r) => setTimeout(r, seconds * 1000));
const g1 = gendata.latest();
await gendata.stop();
if (!g0 || !g1) throw new Error("gendata printed no reports");
const gRate = (g1.delivered - g0.delivered) / (g1.t - g0.t);
const gCpu = (g1.cpuSeconds - g0.cpuSeconds) / (g1.t - g0.t);

const encoder = new RecordEncoder(42);
const payloads = Array.from({ length: 20_000 }, (_, i) => encoder.encode(i, Date.now()).value);
const payloadFile = join(dir, "payloads.txt");
writeFileSync(payloadFile, payloads.join("\n"));
const avgBytes = payloads.reduce((a, p) => a + p.length, 0) / payloads.length;
const records = Math.round(Math.max(gRate, 50_000) * seconds);
const classpath = await kafkaClasspath(join(cacheRoot(), "kafka"), console.error);
const perf = execa("java", [
  "-cp", classpath, "org.apache.kafka.tools.ProducerPerformance",
  "--topic", topics[1], "--num-records", String(records), "--throughput", "-1", "--payload-file", payloadFile,
  "--producer-props", `bootstrap.servers=${opts.bootstrap}`, "acks=all", "compression.type=lz4", "enable.idempotence=true", "linger.ms=5",
], { all: true, reject: false });
let peakCpu = 0;
const poll = setInterval(() => (peakCpu = Math.max(peakCpu, cpuOf(perf.pid as number))), 200);
const started = performance.now();
const result = await perf;
clearInterval(poll);
const wall = (performance.now() - started) / 1000;
const summary = String(result.all).trim().split("\n").pop() ?? "";
const perfRate = Number(/([\d.]+) records\/sec/.exec(summary)?.[1] ?? 0);

await admin.deleteTopics([...topics]);
await admin.close();
const us = (cpu: number, rate: number): string => ((cpu * 1e6) / rate).toFixed(2);
console.log(`records: gendata JSON, ${avgBytes.toFixed(0)} bytes on average; lz4, acks=all, idempotent, linger.ms=5`);
console.log(`gendata:             ${Math.round(gRate)} records/s at ${(gCpu * 100).toFixed(0)}% of a core (${us(gCpu, gRate)} µs CPU per record)`);
console.log(
  `ProducerPerformance: ${Math.round(perfRate)} records/s; JVM CPU ${(peakCpu / wall * 100).toFixed(0)}% of a core over ${wall.toFixed(1)} s including JVM ` +
    `start (${us(peakCpu / wall, perfRate)} µs CPU per record)`,
);
console.log(`ProducerPerformance said: ${summary}`);
