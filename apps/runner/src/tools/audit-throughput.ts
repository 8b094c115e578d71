/**
 * How fast the output audit reads, and where its time goes, against a running broker:
 *   pnpm --filter runner exec tsx src/tools/audit-throughput.ts <bootstrap> produce 5000000
 *   pnpm --filter runner exec tsx src/tools/audit-throughput.ts <bootstrap> read|parse|audit|native|native-one 5000000
 * `produce` fills a topic with N outputs the way a scoring product writes them ({event_id, ts_ms,
 * risk}, lz4, the risk the reference model gives), plus a few duplicates and bad outputs so every
 * branch of the accounting runs; the other modes time one layer each, in a process of their own
 * so that the peak RSS printed is that layer's: `read` readTopic alone, `parse` readTopic and
 * readOutput, `audit` the whole auditOutputs (its DeliveryCheck printed, to compare changes by),
 * `native` the same with core's native output reader (`native-one`: one reader, no split).
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import rdkafka from "@confluentinc/kafka-javascript";
import {
  buildOutputReader,
  cacheRoot,
  eventIdFor,
  KafkaAdmin,
  makeTemplate,
  modelsDir,
  normalise,
  POOL_SIZE,
  readOutput,
  readTopic,
  ReferenceModel,
} from "@bench/core";
import { auditOutputs } from "../run/audit.ts";

const SEED = 42;
/** Every DUPLICATE_EVERY-th record is written twice, every BAD_EVERY-th output is not JSON. */
const DUPLICATE_EVERY = 1000;
const BAD_EVERY = 500_000;
/** Measured windows: this many, each over this share of the produce-time range (a paced session's steps). */
const WINDOWS = 4;
const WINDOW_SHARE = 0.15;

/** What `produce` wrote, for the modes that read it back. */
interface Written {
  topic: string;
  produced: number;
  outputEnd: number;
  tsRange: [number, number];
}

const sidecar = (n: number): string => join(tmpdir(), `audit-throughput-${n}.json`);
const topicFor = (n: number): string => `audit-throughput-${n}`;

/** The reference model's risk for every pooled template, as a product would write it (float32). */
async function poolRisks(reference: ReferenceModel): Promise<Float64Array> {
  const risks = new Float64Array(POOL_SIZE);
  const chunk = 8192;
  for (let start = 0; start < POOL_SIZE; start += chunk) {
    const rows = Array.from({ length: chunk }, (_, i) => normalise(makeTemplate(SEED, start + i)));
    const scored = await reference.score(Float32Array.from(rows.flat()));
    scored.forEach((r, i) => (risks[start + i] = Math.fround(r)));
  }
  return risks;
}

async function connectProducer(bootstrap: string): Promise<rdkafka.Producer> {
  const producer = new rdkafka.Producer({
    "metadata.broker.list": bootstrap,
    "compression.codec": "lz4",
    "linger.ms": 5,
    "batch.num.messages": 10_000,
    "queue.buffering.max.messages": 1_000_000,
    dr_cb: false,
  } as rdkafka.ProducerGlobalConfig);
  await new Promise<void>((resolve, reject) => {
    producer.once("ready", () => resolve());
    producer.once("event.error", reject);
    producer.connect();
  });
  producer.setPollInterval(50);
  return producer;
}

/** Produces, backing off while librdkafka's queue is full. */
async function send(producer: rdkafka.Producer, topic: string, value: Buffer): Promise<void> {
  for (;;) {
    try {
      producer.produce(topic, 0, value, null);
      return;
    } catch (error) {
      if ((error as { code?: number }).code !== rdkafka.CODES.ERRORS.ERR__QUEUE_FULL) throw error;
      await new Promise((r) => setTimeout(r, 5));
    }
  }
}

async function produce(bootstrap: string, n: number): Promise<void> {
  const topic = topicFor(n);
  const admin = await KafkaAdmin.connect(bootstrap);
  await admin.deleteTopics([topic]);
  await admin.createTopics([{ name: topic, config: { "message.timestamp.type": "LogAppendTime" } }]);
  const reference = await ReferenceModel.load(modelsDir());
  const risks = await poolRisks(reference);
  const producer = await connectProducer(bootstrap);
  const started = Date.now();
  let written = 0;
  for (let seq = 0; seq < n; seq++) {
    const value = Buffer.from(JSON.stringify({ event_id: eventIdFor(seq), ts_ms: Date.now(), risk: risks[seq % POOL_SIZE] }));
    const copies = seq % DUPLICATE_EVERY === 0 ? [value, value] : [value];
    if (seq % BAD_EVERY === 0) copies.push(Buffer.from(`{"event_id":"e${seq}","risk":`));
    for (const copy of copies) await send(producer, topic, copy);
    written += copies.length;
  }
  await new Promise<void>((resolve, reject) => producer.flush(120_000, (err) => (err ? reject(err) : resolve())));
  await new Promise<void>((resolve) => producer.disconnect(() => resolve()));
  const outputEnd = await admin.endOffset(topic);
  await admin.close();
  const info: Written = { topic, produced: n, outputEnd, tsRange: [started, Date.now()] };
  writeFileSync(sidecar(n), JSON.stringify(info));
  console.log(`produced ${written} outputs (${outputEnd} in the topic) to ${topic} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** WINDOWS windows spread evenly over the produce-time range. */
function windowsOf([from, to]: [number, number]): Array<[number, number]> {
  const span = to - from;
  return Array.from({ length: WINDOWS }, (_, i) => {
    const start = from + Math.round((span * (i + 0.25)) / WINDOWS);
    return [start, start + Math.round(span * WINDOW_SHARE)] as [number, number];
  });
}

async function measure(bootstrap: string, mode: string, n: number): Promise<void> {
  const info = JSON.parse(readFileSync(sidecar(n), "utf8")) as Written;
  const reference = mode === "audit" || mode.startsWith("native") ? await ReferenceModel.load(modelsDir()) : undefined;
  const built = mode.startsWith("native") ? await buildOutputReader(cacheRoot(), console.log) : undefined;
  if (built !== undefined && !("binary" in built)) throw new Error(`no native output reader: ${built.why}`);
  const rss = new TreeRss();
  const cpuBefore = treeCpuSeconds();
  const started = performance.now();
  let detail: unknown;
  if (mode === "read") detail = await readTopic(bootstrap, info.topic, () => {}, { stopAt: info.outputEnd, idleMs: 10_000 });
  else if (mode === "parse") {
    let ok = 0;
    await readTopic(bootstrap, info.topic, (batch) => batch.forEach((m) => (ok += readOutput(m.value).ok ? 1 : 0)), { stopAt: info.outputEnd, idleMs: 10_000 });
    detail = { ok };
  } else if (mode === "audit" || mode === "native" || mode === "native-one") {
    const [first, ...more] = windowsOf(info.tsRange) as [[number, number], ...Array<[number, number]>];
    detail = await auditOutputs({
      bootstrap, outputTopic: info.topic, produced: info.produced, outputEnd: info.outputEnd, seed: SEED, reference: reference as ReferenceModel,
      passthrough: false, tolerance: (reference as ReferenceModel).card.tolerance, windowMs: first, moreWindowsMs: more,
      ...(built && "binary" in built ? { reader: built.binary } : {}), ...(mode === "native-one" ? { readers: 1 } : {}),
    });
  } else throw new Error(`unknown mode ${mode}: produce, read, parse, audit, native or native-one`);
  const ms = performance.now() - started;
  rss.stop();
  await childrenGone();
  report(mode, info.outputEnd, ms, treeCpuSeconds() - cpuBefore, rss.peakMb);
  console.log(JSON.stringify(detail));
}

function report(mode: string, records: number, ms: number, cpuSeconds: number, peakRssMb: number): void {
  console.log(
    `${mode}: ${records} records in ${(ms / 1000).toFixed(2)} s = ${Math.round(records / (ms / 1000))} records/s; ` +
      `cpu ${cpuSeconds.toFixed(2)} s (${((cpuSeconds * 1e6) / records).toFixed(2)} µs/record, readers included); peak RSS ${peakRssMb.toFixed(0)} MB (with ` +
      `readers)`,
  );
}

/** Until the audit's readers have exited and been waited for, so that their CPU counts. */
async function childrenGone(): Promise<void> {
  const isReader = (pid: string): boolean => {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
      return cmdline.includes("audit-child") || cmdline.includes("output-reader");
    } catch {
      return false;
    }
  };
  while (childPids().some(isReader)) await new Promise((r) => setTimeout(r, 50));
  await new Promise((r) => setTimeout(r, 50));
}

function childPids(): string[] {
  return readdirSync("/proc/self/task").flatMap((t) => readFileSync(`/proc/self/task/${t}/children`, "utf8").split(" ").filter(Boolean));
}

/** CPU seconds of this process and of its children that have ended (/proc/self/stat utime..cstime). */
function treeCpuSeconds(): number {
  const stat = readFileSync("/proc/self/stat", "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return fields.slice(11, 15).reduce((sum, f) => sum + Number(f), 0) / 100;
}

/** The peak of this process's RSS plus its children's, sampled every 100 ms. */
class TreeRss {
  peakMb = 0;
  private readonly timer = setInterval(() => (this.peakMb = Math.max(this.peakMb, this.nowMb())), 100);

  stop(): void {
    clearInterval(this.timer);
    this.peakMb = Math.max(this.peakMb, process.resourceUsage().maxRSS / 1024);
  }

  private nowMb(): number {
    return ["self", ...childPids()].reduce((sum, pid) => sum + rssKb(pid), 0) / 1024;
  }
}

function rssKb(pid: string): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
  } catch {
    return 0; // ended between the listing and the read
  }
}

async function main([bootstrap, mode, count]: string[]): Promise<void> {
  if (!bootstrap || !mode) throw new Error("usage: audit-throughput.ts <bootstrap> produce|read|parse|audit|native|native-one [N]");
  const n = Number(count ?? 3_000_000);
  if (mode === "produce") await produce(bootstrap, n);
  else await measure(bootstrap, mode, n);
}

await main(process.argv.slice(2));
