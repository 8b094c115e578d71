/**
 * The flow every adapter's integration test runs against a real broker: prepare -> fresh
 * topics -> start -> the verification gate, as the bench runs it (core's runGate: the gate's
 * records produced, with any poison pills among them, the output read and held to the fixtures)
 * -> wait for consumed to reach the record count -> stop. It returns what it saw and leaves the
 * asserting to the test (poison-suite.ts holds what every row asserts).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Prepared, Product, ProductExit, RunningProduct } from "../adapter.ts";
import type { GateResult } from "../gate-check.ts";
import { loadGateRecords } from "../gate-records.ts";
import { DEFAULT_GUARANTEE, type Guarantee } from "../guarantee.ts";
import { pillOffsets, runGate } from "../gate-run.ts";
import { KafkaAdmin } from "../kafka.ts";
import { KAFKA_SETTINGS } from "../kafka-settings.ts";
import { loadModelCard } from "../model.ts";
import { fixturesDir, modelsDir, repoRoot } from "../paths.ts";
import type { PoisonPill } from "../poison.ts";
import type { SpellingFindings } from "../spelling-findings.ts";

export interface FixtureRunOptions {
  bootstrap: string;
  /** Defaults to 1. */
  parallelism?: number;
  /** The guarantee the product runs under; defaults to at-least-once. */
  guarantee?: Guarantee;
  /** Served: the model server's gRPC address the product calls (RunContext.modelServer); absent, it runs embedded. */
  modelServer?: string;
  cacheDir: string;
  /** Topic and group names start with this; a timestamp and this pid keep them fresh. */
  topicPrefix: string;
  /** Until every fixture event id has come out (the gate's timeout). Defaults to 180 s. */
  readTimeoutMs?: number;
  /** Until consumed reaches the record count. Defaults to 30 s. */
  consumedTimeoutMs?: number;
  log?: (line: string) => void;
  /** Return with the product still running (e.g. to read its log or the broker first); the test then calls stop(). */
  keepRunning?: boolean;
  /** Malformed records produced among the generated fixtures, each before the fixture of index beforeSeq. */
  poison?: readonly PoisonPill[];
}

export interface StopOutcome {
  exit: ProductExit;
  /** Root pids still alive (zombies count as dead) right after stop(). */
  aliveAfterStop: number[];
}

export interface RunTopics {
  input: string;
  output: string;
  groupId: string;
}

export interface LiveFixtureRun {
  preparation: Prepared;
  topics: RunTopics;
  /** The verification gate's result, as the bench's gate finds it (the card's tolerance). */
  gate: GateResult;
  /** The product's declared spelling findings, which the gate held it to ({} when none). */
  findings: SpellingFindings;
  /** The last output record read for each fixture's event id (at-least-once products may repeat some). */
  outputs: ReadonlyMap<string, Record<string, unknown>>;
  /** Records produced into the input topic: fixtures, spellings and pills. */
  inputCount: number;
  /** The input offsets the pills were produced at, in order. */
  pillOffsets: number[];
  /** Consumed (group offset or the product's engine counter) when the wait ended. */
  consumed: number;
  running: RunningProduct;
  /** The run's folder (the product's logs); removed by stop() unless the run failed. */
  runDir: string;
  /** The state folder the product was started with (RunContext's stateDir): a restart in a test passes it again. */
  stateDir: string;
  rootPids: number[];
  /** Root pids alive right after start() returned. */
  aliveAtStart: number[];
  /** Stops the product, then deletes the topics; idempotent, never throws for cleanup. */
  stop(): Promise<StopOutcome>;
}

export type FixtureRun = LiveFixtureRun & StopOutcome;

/** Alive and not a zombie waiting to be reaped (state Z in /proc/<pid>/stat). */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name may hold spaces and parentheses: the state follows the last ')'.
    return stat.charAt(stat.lastIndexOf(")") + 2) !== "Z";
  } catch {
    return false;
  }
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 250));
  }
  return check();
}

/** What the product reports consumed once it has consumed every input (or the time is up). */
async function consumedOnceAll(running: RunningProduct, admin: KafkaAdmin, topics: RunTopics, inputCount: number, timeoutMs: number): Promise<number> {
  const source = running.consumed;
  const readConsumed = (): Promise<number> => (source.kind === "engine-counter" ? source.read() : admin.committedOffset(topics.groupId, topics.input));
  await waitFor(async () => (await readConsumed()) >= inputCount, timeoutMs);
  return readConsumed();
}

/** The product's prepare(), which must succeed: a test of a row that cannot run here fails with prepare()'s reason. */
export async function prepareOrThrow<Found>(product: Product<Found>, opts: { cacheDir: string; log?: (line: string) => void }): Promise<Prepared<Found>> {
  const log = opts.log ?? ((line: string) => console.log(line));
  const preparation = await product.prepare({ repoRoot: repoRoot(), modelsDir: modelsDir(), cacheDir: opts.cacheDir, log });
  if (!preparation.ok) throw new Error(`${product.id}: prepare failed: ${preparation.reason}`);
  log(`${product.id} versions ${JSON.stringify(preparation.versions)}`);
  return preparation;
}

/** One run's broker side and folder: fresh topics (the output stamps LogAppendTime, as the bench's), and stop() that ends the product and removes them. */
class RunResources {
  readonly topics: RunTopics;
  readonly runDir: string;
  readonly stateDir: string;
  running: RunningProduct | undefined;
  failed = false;
  private stopped: Promise<StopOutcome> | undefined;

  constructor(readonly admin: KafkaAdmin, prefix: string, private readonly log: (line: string) => void) {
    const name = `${prefix}-${Date.now()}-${process.pid}`;
    this.topics = { input: `${name}-in`, output: `${name}-out`, groupId: `${name}-group` };
    this.runDir = mkdtempSync(join(tmpdir(), `${prefix}-`));
    this.stateDir = join(this.runDir, "state");
    mkdirSync(this.stateDir, { recursive: true });
  }

  createTopics(): Promise<void> {
    return this.admin.createTopics([{ name: this.topics.input }, { name: this.topics.output, config: { "message.timestamp.type": "LogAppendTime" } }]);
  }

  readonly stop = (): Promise<StopOutcome> => (this.stopped ??= this.stopOnce());

  private async stopOnce(): Promise<StopOutcome> {
    const running = this.running;
    const roots = running?.rootPids() ?? [];
    try {
      await running?.stop();
      const exit = running ? await running.exited : { code: null, signal: null };
      return { exit, aliveAfterStop: roots.filter(alive) };
    } finally {
      await this.admin.deleteTopics([this.topics.input, this.topics.output]).catch(
        (e: unknown) => this.log(`deleting ${this.topics.input} and its output: ${String(e)}`),
      );
      await this.admin.close().catch(() => undefined);
      // A failed run's folder (the product's logs) is kept for reading.
      if (!this.failed) rmSync(this.runDir, { recursive: true, force: true });
    }
  }
}

async function startProduct(
  product: Product,
  preparation: Prepared,
  opts: FixtureRunOptions,
  run: RunResources,
  log: (line: string) => void,
): Promise<RunningProduct> {
  const { topics, runDir, stateDir } = run;
  const ctx = {
    bootstrap: opts.bootstrap,
    kafka: KAFKA_SETTINGS,
    inputTopic: topics.input,
    outputTopic: topics.output,
    groupId: topics.groupId,
    parallelism: opts.parallelism ?? 1,
    guarantee: opts.guarantee ?? DEFAULT_GUARANTEE,
    ...(opts.modelServer !== undefined ? { modelServer: opts.modelServer } : {}),
  };
  run.running = await product.start(
    { ...ctx, runDir, stateDir, repoRoot: repoRoot(), modelsDir: modelsDir(), cacheDir: opts.cacheDir, log },
    preparation.found,
  );
  // With no roots, "nothing alive after stop" would hold vacuously.
  if (run.running.rootPids().length === 0) throw new Error(`${product.id}: started with no root process`);
  return run.running;
}

/** The gate against the started product, then the wait for consumed: what LiveFixtureRun reports of the scoring. */
async function gateThroughProduct(
  product: Product,
  running: RunningProduct,
  opts: FixtureRunOptions,
  run: RunResources,
  log: (line: string) => void,
): Promise<Pick<LiveFixtureRun, "gate" | "findings" | "outputs" | "inputCount" | "pillOffsets" | "consumed">> {
  let exit: ProductExit | undefined;
  void running.exited.then((e) => (exit = e));
  const { result: gate, outputs, produced } = await runGate({
    bootstrap: opts.bootstrap,
    inputTopic: run.topics.input,
    outputTopic: run.topics.output,
    fixtures: loadGateRecords(fixturesDir()),
    tolerance: loadModelCard(modelsDir()).tolerance,
    passthrough: product.passthrough === true,
    findings: product.spellingFindings ?? {},
    timeoutMs: opts.readTimeoutMs ?? 180_000,
    aborted: () => exit && `exited during the run (code ${exit.code}, signal ${exit.signal})`,
    poison: opts.poison ?? [],
  });
  if (!gate.passed) log(`${product.id}: the gate failed: ${gate.problem}; log tail:\n${running.logTail(60)}`);
  const consumed = await consumedOnceAll(running, run.admin, run.topics, produced.length, opts.consumedTimeoutMs ?? 30_000);
  return { gate, findings: product.spellingFindings ?? {}, outputs, inputCount: produced.length, pillOffsets: pillOffsets(produced), consumed };
}

export function scoreFixturesThroughProduct(product: Product, opts: FixtureRunOptions & { keepRunning: true }): Promise<LiveFixtureRun>;
export function scoreFixturesThroughProduct(product: Product, opts: FixtureRunOptions): Promise<FixtureRun>;
export async function scoreFixturesThroughProduct(product: Product, opts: FixtureRunOptions): Promise<LiveFixtureRun | FixtureRun> {
  const log = opts.log ?? ((line: string) => console.log(line));
  const preparation = await prepareOrThrow(product, { cacheDir: opts.cacheDir, log });
  const run = new RunResources(await KafkaAdmin.connect(opts.bootstrap), opts.topicPrefix, log);
  try {
    await run.createTopics();
    const running = await startProduct(product, preparation, opts, run, log);
    const rootPids = running.rootPids();
    const aliveAtStart = rootPids.filter(alive);
    const scored = await gateThroughProduct(product, running, opts, run, log);
    const { topics, runDir, stateDir, stop } = run;
    const live: LiveFixtureRun = { preparation, topics, ...scored, running, runDir, stateDir, rootPids, aliveAtStart, stop };
    if (opts.keepRunning) return live;
    return { ...live, ...(await stop()) };
  } catch (error) {
    run.failed = true;
    log(`${product.id}: fixture run failed; its run folder is kept at ${run.runDir}`);
    await run.stop();
    throw error;
  }
}

/**
 * Topics on the broker named after the run's group besides its input and output: where a
 * framework's changelog or repartition topics (broker hops) would be.
 */
export async function topicsOfGroup(bootstrap: string, topics: RunTopics): Promise<string[]> {
  const admin = await KafkaAdmin.connect(bootstrap);
  try {
    return (await admin.listTopics()).filter((t) => t.includes(topics.groupId) && t !== topics.input && t !== topics.output);
  } finally {
    await admin.close();
  }
}
