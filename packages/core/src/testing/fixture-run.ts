/**
 * The flow every adapter's integration test runs against a real broker: prepare -> fresh
 * topics -> start -> produce the gate's records (the 256 generated fixtures, then the spelling
 * cases as their exact raw text, with their key or none) -> read the output until every event
 * id is seen -> compare with the fixtures -> wait for consumed to reach the record count -> stop.
 * It returns what it saw and leaves the asserting to the test, so each test states its own
 * bar and adds only what is particular to its product.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Prepared, Product, ProductExit, RunningProduct } from "../adapter.ts";
import { fixtureLabel, loadGateRecords, type GateRecord } from "../gate-records.ts";
import { KafkaAdmin, produceMessages, readTopic, type KeyedValue } from "../kafka.ts";
import { KAFKA_SETTINGS } from "../kafka-settings.ts";
import { loadModelCard } from "../model.ts";
import { fixturesDir, modelsDir, repoRoot } from "../paths.ts";
import type { PoisonPill } from "../poison.ts";
import type { OutputRecord } from "../schema.ts";

export interface FixtureRunOptions {
  bootstrap: string;
  /** Defaults to 1. */
  parallelism?: number;
  cacheDir: string;
  /** Topic and group names start with this; a timestamp and this pid keep them fresh. */
  topicPrefix: string;
  /** Until every fixture event id has come out. Defaults to 180 s. */
  readTimeoutMs?: number;
  /** Until consumed reaches the fixture count. Defaults to 30 s. */
  consumedTimeoutMs?: number;
  log?: (line: string) => void;
  /** Return with the product still running (e.g. to read its log or the broker first); the test then calls stop(). */
  keepRunning?: boolean;
  /** Malformed records produced among the generated fixtures, each before the fixture of index beforeSeq. */
  poison?: readonly PoisonPill[];
}

export interface TsMismatch {
  eventId: string;
  expected: number;
  actual: unknown;
}

/** How the output compares with the fixtures; pure, so unit-tested on its own. */
export interface FixtureComparison {
  /** Largest |risk - reference| over the ids that came out; Infinity when a risk is not a number. */
  maxRiskError: number;
  /** Fixture event ids with no output record. */
  missing: string[];
  tsMismatches: TsMismatch[];
  /**
   * Every fixture the product did not score exactly, named by case ("fixture \"pretty-printed\"
   * (event e256): no output"): missing, a wrong ts_ms, or (scoring rows) a risk off the reference
   * by more than the tolerance.
   */
  problems: string[];
}

/** What compareWithFixtures holds the outputs to. */
export interface FixtureBar {
  /** The model card's tolerance. */
  tolerance: number;
  /** A passthrough row republishes the record: no risk to check. */
  passthrough?: boolean;
}

export interface StopOutcome {
  exit: ProductExit;
  /** Root pids still alive (zombies count as dead) right after stop(). */
  aliveAfterStop: number[];
}

export interface LiveFixtureRun extends FixtureComparison {
  preparation: Prepared;
  topics: { input: string; output: string; groupId: string };
  /** The last output record seen for each event id (at-least-once products may repeat some). */
  outputs: Map<string, OutputRecord>;
  /** Output records whose value is not JSON or whose id is no fixture's (e.g. a republished pill). */
  strayOutputs: number;
  /** Records produced into the input topic: fixtures, spellings and pills. */
  inputCount: number;
  fixtureCount: number;
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

export function compareWithFixtures(fixtures: readonly GateRecord[], outputs: ReadonlyMap<string, OutputRecord>, bar: FixtureBar): FixtureComparison {
  let maxRiskError = 0;
  const missing: string[] = [];
  const tsMismatches: TsMismatch[] = [];
  const problems: string[] = [];
  for (const fixture of fixtures) {
    const { eventId, tsMs, risk } = fixture;
    const out = outputs.get(eventId);
    if (!out) {
      missing.push(eventId);
      problems.push(`${fixtureLabel(fixture)}: no output`);
      continue;
    }
    if (out.ts_ms !== tsMs) {
      tsMismatches.push({ eventId, expected: tsMs, actual: out.ts_ms });
      problems.push(`${fixtureLabel(fixture)}: ts_ms ${JSON.stringify(out.ts_ms)}, expected ${tsMs}`);
    }
    const error = typeof out.risk === "number" ? Math.abs(out.risk - risk) : Number.NaN;
    // NaN would slip past a max and a <= check alike.
    const counted = Number.isNaN(error) ? Number.POSITIVE_INFINITY : error;
    maxRiskError = Math.max(maxRiskError, counted);
    if (!bar.passthrough && counted > bar.tolerance) problems.push(`${fixtureLabel(fixture)}: risk ${JSON.stringify(out.risk)}, reference ${risk}`);
  }
  return { maxRiskError, missing, tsMismatches, problems };
}

/**
 * The input topic's messages in order: the gate's records as their exact raw text with their
 * key (or none), each pill right before the generated fixture of its beforeSeq; pills placed
 * past the generated fixtures go after them, before the spellings.
 */
export function gateMessages(fixtures: readonly GateRecord[], poison: readonly PoisonPill[]): KeyedValue[] {
  const generated = fixtures.filter((f) => f.name === "generated");
  const pill = (p: PoisonPill): KeyedValue => ({ key: "poison", value: p.value });
  return [
    ...generated.flatMap((f, i) => [...poison.filter((p) => p.beforeSeq === i).map(pill), { key: f.key, value: f.value }]),
    ...poison.filter((p) => p.beforeSeq >= generated.length).map(pill),
    ...fixtures.filter((f) => f.name !== "generated").map((f) => ({ key: f.key, value: f.value })),
  ];
}

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

/**
 * At-least-once products may repeat records, so read on until every fixture id has been seen
 * (or the product has ended, or time is up). An output that is not JSON, or for no fixture, is stray.
 */
async function readOutputs(opts: FixtureRunOptions, topic: string, fixtures: ReturnType<typeof loadGateRecords>, ended: () => boolean): Promise<{ outputs: Map<string, OutputRecord>; strayOutputs: number }> {
  const fixtureIds = new Set(fixtures.map((f) => f.eventId));
  const outputs = new Map<string, OutputRecord>();
  let strayOutputs = 0;
  const readDeadline = Date.now() + (opts.readTimeoutMs ?? 180_000);
  let fromOffset = 0;
  while (outputs.size < fixtures.length && Date.now() < readDeadline && !ended()) {
    fromOffset += await readTopic(
      opts.bootstrap,
      topic,
      (batch) => {
        for (const m of batch) {
          let out: OutputRecord | undefined;
          try {
            out = JSON.parse(m.value.toString("utf8")) as OutputRecord;
          } catch {
            out = undefined;
          }
          if (out && fixtureIds.has(out.event_id)) outputs.set(out.event_id, out);
          else strayOutputs++;
        }
      },
      { fromOffset, stopAt: fixtures.length - outputs.size, idleMs: 30_000, timeoutMs: Math.max(1, readDeadline - Date.now()) },
    );
  }
  return { outputs, strayOutputs };
}

/** What the product reports consumed once it has consumed every input (or the time is up). */
async function consumedOnceAll(running: RunningProduct, admin: KafkaAdmin, topics: { input: string; groupId: string }, inputCount: number, timeoutMs: number): Promise<number> {
  const source = running.consumed;
  const readConsumed = (): Promise<number> => (source.kind === "engine-counter" ? source.read() : admin.committedOffset(topics.groupId, topics.input));
  await waitFor(async () => (await readConsumed()) >= inputCount, timeoutMs);
  return readConsumed();
}

export function scoreFixturesThroughProduct(product: Product, opts: FixtureRunOptions & { keepRunning: true }): Promise<LiveFixtureRun>;
export function scoreFixturesThroughProduct(product: Product, opts: FixtureRunOptions): Promise<FixtureRun>;
export async function scoreFixturesThroughProduct(product: Product, opts: FixtureRunOptions): Promise<LiveFixtureRun | FixtureRun> {
  const log = opts.log ?? ((line: string) => console.log(line));
  const preparation = await product.prepare({ repoRoot: repoRoot(), modelsDir: modelsDir(), cacheDir: opts.cacheDir, log });
  if (!preparation.ok) throw new Error(`${product.id}: prepare failed: ${preparation.reason}`);
  log(`${product.id} versions ${JSON.stringify(preparation.versions)}`);

  const name = `${opts.topicPrefix}-${Date.now()}-${process.pid}`;
  const topics = { input: `${name}-in`, output: `${name}-out`, groupId: `${name}-group` };
  const admin = await KafkaAdmin.connect(opts.bootstrap);
  const runDir = mkdtempSync(join(tmpdir(), `${opts.topicPrefix}-`));
  let running: RunningProduct | undefined;
  let stopped: Promise<StopOutcome> | undefined;
  let failed = false;

  const stop = (): Promise<StopOutcome> =>
    (stopped ??= (async () => {
      const roots = running?.rootPids() ?? [];
      try {
        await running?.stop();
        const exit = running ? await running.exited : { code: null, signal: null };
        return { exit, aliveAfterStop: roots.filter(alive) };
      } finally {
        await admin.deleteTopics([topics.input, topics.output]).catch((e: unknown) => log(`deleting ${name} topics: ${String(e)}`));
        await admin.close().catch(() => undefined);
        // A failed run's folder (the product's logs) is kept for reading.
        if (!failed) rmSync(runDir, { recursive: true, force: true });
      }
    })());

  try {
    await admin.createTopics([{ name: topics.input }, { name: topics.output, config: { "message.timestamp.type": "LogAppendTime" } }]);
    const stateDir = join(runDir, "state");
    mkdirSync(stateDir, { recursive: true });
    running = await product.start({
      bootstrap: opts.bootstrap,
      kafka: KAFKA_SETTINGS,
      inputTopic: topics.input,
      outputTopic: topics.output,
      groupId: topics.groupId,
      parallelism: opts.parallelism ?? 1,
      runDir,
      stateDir,
      repoRoot: repoRoot(),
      modelsDir: modelsDir(),
      cacheDir: opts.cacheDir,
      log,
    }, preparation.found);
    const rootPids = running.rootPids();
    // With no roots, "nothing alive after stop" would hold vacuously.
    if (rootPids.length === 0) throw new Error(`${product.id}: started with no root process`);
    const aliveAtStart = rootPids.filter(alive);
    let exitedEarly = false;
    void running.exited.then(() => (exitedEarly = true));

    const fixtures = loadGateRecords(fixturesDir());
    const messages = gateMessages(fixtures, opts.poison ?? []);
    const inputCount = messages.length;
    await produceMessages(opts.bootstrap, topics.input, messages);
    const { outputs, strayOutputs } = await readOutputs(opts, topics.output, fixtures, () => exitedEarly);
    if (outputs.size < fixtures.length) log(`${product.id}: ${outputs.size} of ${fixtures.length} ids came out; log tail:\n${running.logTail(60)}`);

    const consumed = await consumedOnceAll(running, admin, topics, inputCount, opts.consumedTimeoutMs ?? 30_000);

    const live: LiveFixtureRun = {
      preparation,
      topics,
      outputs,
      strayOutputs,
      inputCount,
      fixtureCount: fixtures.length,
      ...compareWithFixtures(fixtures, outputs, { tolerance: loadModelCard(modelsDir()).tolerance, passthrough: product.passthrough === true }),
      consumed,
      running,
      runDir,
      stateDir,
      rootPids,
      aliveAtStart,
      stop,
    };
    if (opts.keepRunning) return live;
    return { ...live, ...(await stop()) };
  } catch (error) {
    failed = true;
    log(`${product.id}: fixture run failed; its run folder is kept at ${runDir}`);
    await stop();
    throw error;
  }
}

/**
 * Topics on the broker named after the run's group besides its input and output: where a
 * framework's changelog or repartition topics (broker hops) would be.
 */
export async function topicsOfGroup(bootstrap: string, topics: { input: string; output: string; groupId: string }): Promise<string[]> {
  const admin = await KafkaAdmin.connect(bootstrap);
  try {
    return (await admin.listTopics()).filter((t) => t.includes(topics.groupId) && t !== topics.input && t !== topics.output);
  } finally {
    await admin.close();
  }
}
