/**
 * The skeleton every run of a product shares, measured (`measure.ts`) or faulted
 * (`faults/run-faults.ts`): fresh topics and a run folder, the product started against them
 * with a watch on its exit, the verification gate, gendata with the once-a-second ticker, the
 * records that crossed other topics, and the teardown that always runs. Each kind of run is
 * these phases in its order plus only what differs.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { FIXTURE_COUNT, KAFKA_SETTINGS, productCacheDir, type Prepared, type Product, type RunContext, type RunningProduct } from "@bench/core";
import type { VerificationResult } from "../results/types.ts";
import type { BenchContext } from "./context.ts";
import { GendataProcess, type GendataOptions } from "./gendata-process.ts";
import { MachineWatch } from "./machine.ts";
import { RemoteMeter } from "./remote-resources.ts";
import { RunTicker } from "./ticker.ts";
import { verifyProduct } from "./verify.ts";

/** What every kind of run is given. */
export interface RunBasics {
  rate: number;
  /** The window never starts before this many seconds of gendata. */
  warmupSec: number;
  windowSec: number;
  parallelism: number;
  seed: number;
  /** Longest wait for the backlog to drain after gendata stops. */
  drainTimeoutSec: number;
  /** A product whose consumed count stands still this long with a backlog has hung. */
  hangSec: number;
}

export interface RunPlan {
  runDir: string;
  inputTopic: string;
  outputTopic: string;
  groupId: string;
}

/** Topic, group and folder names: the product, what kind of run (a rate, "faults"), a timestamp. */
export function planRun(productId: string, label: string | number, resultsDir: string): RunPlan {
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const runId = `${productId}.${label}.${stamp}`;
  const runDir = join(resultsDir, "runs", `${productId}-${label}-${stamp}`);
  mkdirSync(runDir, { recursive: true });
  return { runDir, inputTopic: `bench.${runId}.in`, outputTopic: `bench.${runId}.out`, groupId: `bench.${runId}` };
}

export class RunSession {
  /** The product instance running now (a restart replaces it). */
  running: RunningProduct | undefined;
  gendata: GendataProcess | undefined;
  /** Set when the running instance exited without being asked to. */
  crashed: string | undefined;
  private topicsBefore = new Set<string>();
  private expectedExit = false;

  constructor(
    readonly product: Product,
    readonly prepared: Prepared,
    readonly plan: RunPlan,
    readonly basics: RunBasics,
    readonly bench: BenchContext,
  ) {}

  /** Why the run must stop now: the product crashed or the bench was interrupted. */
  readonly aborted = (): string | undefined => this.crashed ?? this.bench.interrupted();

  /** One state folder per run, beside the first start's logs: a restart finds what the killed start wrote. */
  private stateDir(): string {
    const dir = join(this.plan.runDir, "state");
    mkdirSync(dir, { recursive: true });
    return dir;
  }

  context(runDir = this.plan.runDir): RunContext {
    const { bench, plan, basics, product } = this;
    return {
      ...plan,
      runDir,
      stateDir: this.stateDir(),
      bootstrap: bench.bootstrap,
      guarantee: bench.guarantee,
      kafka: KAFKA_SETTINGS,
      parallelism: basics.parallelism,
      repoRoot: bench.repoRoot,
      modelsDir: bench.modelsDir,
      cacheDir: productCacheDir(bench.cacheDir, product),
      log: bench.log,
    };
  }

  /** start — the output topic stamps LogAppendTime, so latency ends at the broker, not at a product's clock. */
  async createTopics(): Promise<void> {
    await this.bench.admin.createTopics(
      [{ name: this.plan.inputTopic }, { name: this.plan.outputTopic, config: { "message.timestamp.type": "LogAppendTime" } }],
    );
    this.topicsBefore = new Set(await this.bench.admin.listTopics());
  }

  /** Starts an instance and watches its exit; throws "did not start: …" when the adapter cannot. */
  async start(runDir = this.plan.runDir): Promise<RunningProduct> {
    let instance: RunningProduct;
    try {
      instance = await this.product.start(this.context(runDir), this.prepared.found);
    } catch (error) {
      throw new Error(`did not start: ${(error as Error).message}`);
    }
    this.running = instance;
    this.expectedExit = false;
    void instance.exited.then((exit) => {
      if (!this.expectedExit && this.running === instance) this.crashed = `exited during the run (code ${exit.code}, signal ${exit.signal})`;
    });
    return instance;
  }

  /** The exit that follows is ours (a stop, or a kill -9 before a restart), not a crash. */
  expectExit(): void {
    this.expectedExit = true;
  }

  /** verify — the fixtures scored right before any timing. */
  verify(): Promise<VerificationResult> {
    return verifyProduct({
      bootstrap: this.bench.bootstrap,
      inputTopic: this.plan.inputTopic,
      outputTopic: this.plan.outputTopic,
      fixtures: this.bench.fixtures,
      tolerance: this.bench.reference.card.tolerance,
      passthrough: this.product.passthrough === true,
      ...(this.product.spellingFindings ? { findings: this.product.spellingFindings } : {}),
      timeoutMs: 180_000,
      aborted: this.aborted,
    });
  }

  /** gendata at the offered rate, and the once-a-second ticker that watches the product and the machine. */
  feed(
    opts: { hangSec?: number; poison?: GendataOptions["poison"]; brokerMayGoAway?: boolean } = {},
  ): { feed: GendataProcess; watch: MachineWatch; ticker: RunTicker } {
    const { bench, plan, basics } = this;
    const feed = new GendataProcess(
      {
        bootstrap: bench.bootstrap,
        topic: plan.inputTopic,
        rate: basics.rate,
        seed: basics.seed,
        startSeq: FIXTURE_COUNT,
        logFile: join(plan.runDir, "gendata.log"),
        ...(opts.poison ? { poison: opts.poison } : {}),
      },
    );
    this.gendata = feed;
    return { feed, ...this.watch(feed, opts.hangSec, this.basics.rate, opts.brokerMayGoAway) };
  }

  /** The once-a-second ticker over the product and the machine, with `feed` as the run's gendata (running, or done filling). */
  watch(feed: GendataProcess, hangSec?: number, rate = this.basics.rate, brokerMayGoAway = false): { watch: MachineWatch; ticker: RunTicker } {
    const { bench, plan, basics, product } = this;
    const roots = (): number[] => this.running?.rootPids() ?? [];
    // The run's gendata (a faults run may replace it mid-run, session.gendata), else the feed it was watched with.
    const watch = new MachineWatch(
      roots,
      { runner: process.pid, gendata: () => [(this.gendata ?? feed).pid], broker: () => (bench.brokerPid ? [bench.brokerPid] : []) },
      bench.modelServer && (() => bench.modelServer?.rootPids() ?? []),
    );
    const readConsumed = async (): Promise<number> => {
      const consumed = this.running?.consumed;
      return consumed?.kind === "engine-counter" ? consumed.read() : bench.admin.committedOffset(plan.groupId, plan.inputTopic);
    };
    const remote = new RemoteMeter(() => this.running?.remoteResources);
    const ticker = new RunTicker({
      admin: bench.admin,
      inputTopic: plan.inputTopic,
      outputTopic: plan.outputTopic,
      readConsumed,
      readRemote: () => remote.read(),
      watch,
      gendata: feed,
      rate,
      hangSec: hangSec ?? basics.hangSec,
      aborted: this.aborted,
      onTick: (phase, tick, perSec) => bench.onTick?.(product.id, phase, tick, perSec),
      brokerMayGoAway,
    });
    bench.onRunStart?.(product.id, rate, basics.warmupSec + basics.windowSec);
    return { watch, ticker };
  }

  /** Records written during the run to topics other than input and output: broker hops, dead letters. */
  async extraRecords(): Promise<number> {
    const own = [this.plan.inputTopic, this.plan.outputTopic];
    const created = (await this.bench.admin.listTopics()).filter((t) => !this.topicsBefore.has(t) && !own.includes(t) && !t.startsWith("__"));
    let total = 0;
    for (const topic of created) total += await this.bench.admin.endOffset(topic);
    return total;
  }

  /** stop — always: gendata, then the product's process group, then the topics (unless kept). */
  async teardown(keepTopics = false): Promise<void> {
    this.bench.onRunEnd?.();
    if (this.gendata) await this.gendata.stop();
    this.expectExit();
    await this.running?.stop();
    if (!keepTopics) await this.deleteTopics();
  }

  /** The run's own two topics, gone (a teardown that kept them for an audit calls this after it). */
  async deleteTopics(): Promise<void> {
    await this.bench.admin.deleteTopics([this.plan.inputTopic, this.plan.outputTopic]).catch(() => undefined);
  }
}
