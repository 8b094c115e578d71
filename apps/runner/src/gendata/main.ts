/**
 * gendata as its own process, so its CPU never lands in the runner's or the product's.
 * Prints one JSON line a second ({ t, delivered, sent, behind, ... }) and a final line
 * ({ final: true, ... }) after SIGTERM or --duration, once every record is acknowledged.
 * A producer that gives up (rate-producer.ts: a fatal error, or a broker that takes nothing for
 * --give-up-after seconds) ends gendata with a final line that says why ({ final: true, gaveUp })
 * and exit code 3, so the run that fed on it fails with gendata's reason.
 *
 *   pnpm --filter runner gendata --bootstrap 127.0.0.1:9092 --topic in --rate 50000 --duration 30
 *   pnpm --filter runner gendata --bootstrap 127.0.0.1:9092 --topic in --rate 10000000 --count 3000000
 */
import { Command, InvalidArgumentError } from "commander";
import { poisonSchedule } from "@bench/core";
import { GIVE_UP_SEC, RateProducer } from "./rate-producer.ts";

const positiveInt = (value: string): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError("expected a whole number");
  return n;
};

const opts = new Command("gendata")
  .requiredOption("--bootstrap <host:port>", "Kafka bootstrap address")
  .requiredOption("--topic <name>", "input topic (one partition)")
  .requiredOption("--rate <records/s>", "offered rate", positiveInt)
  .option("--seed <n>", "generator seed", positiveInt, 42)
  .option("--start-seq <n>", "first sequence number", positiveInt, 0)
  .option("--duration <s>", "stop after this many seconds (default: run until SIGTERM)", positiveInt)
  .option("--count <n>", "stop after this many records (with a high --rate: as fast as it can, a drain run's pre-fill)", positiveInt)
  .option("--poison-rounds <n>", "interleave this many malformed records of each kind (seeded by --seed)", positiveInt, 0)
  .option("--poison-from <seq>", "the pills go among the records from this sequence number...", positiveInt, 0)
  .option("--poison-span <n>", "...and the n after it", positiveInt, 0)
  .option("--give-up-after <s>", "give up when records wait this long with none acknowledged", positiveInt, GIVE_UP_SEC)
  .parse()
  .opts<{
    bootstrap: string;
    topic: string;
    rate: number;
    seed: number;
    startSeq: number;
    duration?: number;
    count?: number;
    poisonRounds: number;
    poisonFrom: number;
    poisonSpan: number;
    giveUpAfter: number;
  }>();

const poison = opts.poisonRounds > 0
  ? poisonSchedule({ seed: opts.seed, rounds: opts.poisonRounds, firstSeq: opts.poisonFrom, span: opts.poisonSpan })
  : undefined;
const producer = new RateProducer({ ...opts, giveUpSec: opts.giveUpAfter, ...(poison ? { poison } : {}) });
await producer.connect();
const started = performance.now();
const cpuStart = process.cpuUsage();
producer.start();

const report = (extra: Record<string, unknown> = {}): void => {
  const cpu = process.cpuUsage(cpuStart);
  const t = (performance.now() - started) / 1000;
  process.stdout.write(
    `${JSON.stringify({ t: Math.round(t * 100) / 100, ...producer.counters(), cpuSeconds: (cpu.user + cpu.system) / 1e6, ...extra })}\n`,
  );
};
const reporter = setInterval(() => {
  report();
  if (producer.gaveUp() !== undefined) void giveUp();
}, 1000);

let stopping = false;
const stop = async (): Promise<void> => {
  if (stopping) return;
  stopping = true;
  clearInterval(reporter);
  await producer.stop();
  report({ final: true });
  process.exit(0);
};
/** The producer gave up: its queue is not flushed (nothing would take it), the final line says why. */
const giveUp = async (): Promise<void> => {
  if (stopping) return;
  stopping = true;
  clearInterval(reporter);
  process.stderr.write(`gendata: gave up: ${producer.gaveUp()}\n`);
  report({ final: true });
  await producer.stop(1000).catch(() => undefined);
  process.exit(3);
};
process.on("SIGTERM", () => void stop());
process.on("SIGINT", () => void stop());
if (opts.duration !== undefined) setTimeout(() => void stop(), opts.duration * 1000);
if (opts.count !== undefined) void producer.done.then(stop);
