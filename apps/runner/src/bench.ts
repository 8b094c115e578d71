/**
 * The main job: read the machine's speed index, prepare each chosen product, run it at its
 * offered rate (or sweep for its knee), write results after every run (so an interruption keeps
 * what was measured), render the page at the end, and exit with a code that says how it went.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { userPath } from "./user-path.ts";
import {
  cacheRoot,
  FIXTURE_SEED,
  fixturesDir,
  KafkaAdmin,
  gateRecordsScored,
  NO_EXACTLY_ONCE,
  modelsDir,
  productCacheDir,
  productNotes,
  ReferenceModel,
  repoRoot,
  type ExactlyOnceOffer,
  type GateRecord,
  type Guarantee,
  type ModelCard,
  type Prepared,
  type Product,
  type Serving,
} from "@bench/core";
import { KafkaBroker } from "./broker/kafka-broker.ts";
import { localListenerPid } from "./broker/local-pid.ts";
import { allowBrokerRestart } from "./broker/restartable.ts";
import { describeHost } from "./host.ts";
import { renderPage } from "./page/render.ts";
import { EXIT, exitCodeFor } from "./exit-code.ts";
import { writeHtmlPage } from "./page/html/command.ts";
import { writeArrowFiles } from "./results/arrow.ts";
import { RunProgress } from "./progress.ts";
import type { BenchContext } from "./run/context.ts";
import { prepareProfilers } from "./profile/window.ts";
import { measureRun, type RunSettings } from "./run/measure.ts";
import { prepareOutputReader } from "./run/audit.ts";
import { discoverProducts } from "./run/discover.ts";
import { measureSpeedIndex, SpacedSpeedIndex, SPEED_INDEX_SPACING_MS, SPEED_INDEX_VERSION } from "./run/speed-index.ts";
import { prepareYardstick, SpacedRuntimes } from "./yardstick/read.ts";
import { writeResults } from "./results/files.ts";
import { runSummary } from "./summary.ts";
import { faultProduct } from "./faults/fault-product.ts";
import type { OverloadBase } from "./faults/knees.ts";
import { DEFAULT_RATE } from "./rates.ts";
import { sweepProduct } from "./sweep/run-sweep.ts";
import { fastKneeProduct } from "./sweep/run-fast.ts";
import { mainCommand, type MainCommandParts } from "./rounds/main-command.ts";
import { inTurn, modelAloneRounds } from "./model-alone/rounds.ts";
import type { BenchResults, RunResult, SweepRecord } from "./results/types.ts";
import { modelOf } from "./results/model.ts";
import { brokerUnreachable, rowAdmin, rowFault } from "./row-fault.ts";
import { servedRows } from "./serving/rows.ts";
import { serverAloneRounds } from "./serving/server-alone.ts";
import { startServing, type ServingTarget } from "./serving/target.ts";

export interface BenchOptions {
  products?: string;
  /** `--model`: the card every row loads (models/<model>.card.json). */
  model: string;
  /** `--guarantee`: every row runs under it; under exactly-once only the rows that offer it run. */
  guarantee: Guarantee;
  /** `--serving`: each row scores with its own model (embedded) or calls a model server (served: only the rows that can). */
  serving: Serving;
  /** `--model-server`: the gRPC address of a running server the served rows call instead of the bench's own. */
  modelServer?: string;
  rate: { byProduct: Map<string, number>; fallback: number | undefined };
  warmup: number;
  settleTimeout: number;
  window: number;
  repeat: number;
  parallelism: number;
  bootstrap?: string;
  results?: string;
  drainTimeout: number;
  hang: number;
  /** Handled by the CLI before a bench (list.ts). */
  list?: boolean;
  sweep?: boolean;
  /** Per row, the fast search and then a --sweep, minutes apart: the sweep's results go to sweep/, the page shows how they agree. */
  agreement?: boolean;
  /** A sweep brackets the knee until the top is within this share above the knee. */
  sweepResolution: number;
  /** --profile / --no-profile; unset: profile a sweep's confirm runs only. */
  profile?: boolean;
  faults?: boolean;
  /** `--knees`: each product's overload base rate from a results file (its knee, or its rounds' share of it). */
  knees?: Map<string, OverloadBase>;
  /** The main command's budget in minutes: knee searches and rounds, products' preparation not counted. */
  budget: number;
  /** --also-at-knee: each round also measures the row at its knee, beside its window at the load share. */
  alsoAtKnee?: boolean;
}

/** The main command: neither fixed rates, a sweep, faults nor an agreement sitting. */
export function mainCommandChosen(opts: Pick<BenchOptions, "rate" | "sweep" | "faults" | "agreement">): boolean {
  return !ratesGiven(opts.rate) && !opts.sweep && !opts.faults && !opts.agreement;
}

/** `--rate` given: fixed-rate runs; neither it nor --sweep nor --faults: the fast knee search (sweep/run-fast.ts). */
export function ratesGiven(rate: BenchOptions["rate"]): boolean {
  return rate.fallback !== undefined || rate.byProduct.size > 0;
}

/** Seconds of the profiling phase after a profiled run's window. */
export const PROFILE_SEC = 10;

const log = (line: string): void => void process.stderr.write(`${line}\n`);

function choose(all: Product[], spec: string | undefined): Product[] | string {
  if (!spec) return all;
  const wanted = spec.split(",").map((s) => s.trim()).filter(Boolean);
  const unknown = wanted.filter((id) => !all.some((p) => p.id === id));
  if (unknown.length > 0) return `unknown product ${unknown.map((u) => `"${u}"`).join(", ")}; known: ${all.map((p) => p.id).join(", ")}`;
  return wanted.map((id) => all.find((p) => p.id === id) as Product);
}

/** The products to run, or why the options are bad input. */
function validate(all: Product[], opts: BenchOptions): Product[] | string {
  const chosen = choose(all, opts.products);
  if (typeof chosen === "string") return chosen;
  const unknownRates = [...opts.rate.byProduct.keys()].filter((id) => !all.some((p) => p.id === id));
  if (unknownRates.length > 0) return `--rate names unknown product ${unknownRates.join(", ")}`;
  if (opts.settleTimeout <= opts.warmup) return `--settle-timeout (${opts.settleTimeout}) must be longer than --warmup (${opts.warmup})`;
  if (opts.sweep && ratesGiven(opts.rate)) return "--sweep starts from each row's drain: it goes with no --rate";
  if (opts.agreement && (opts.sweep || opts.faults || ratesGiven(opts.rate))) {
    return "--agreement runs the fast search and a sweep per row: it goes with neither --sweep, --faults nor --rate";
  }
  return chosen;
}

/** Ctrl-C / SIGTERM: the current run stops, the results so far are kept; the answer says whether it came. */
function trapSignals(): () => string | undefined {
  let interrupted: string | undefined;
  const onSignal = (signal: string): void => {
    if (interrupted) return;
    interrupted = `interrupted by ${signal}`;
    log(`\nbench: ${interrupted}; stopping the current run and keeping the results so far`);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  return () => interrupted;
}

export async function runBench(opts: BenchOptions): Promise<number> {
  const chosen = validate(await discoverProducts(repoRoot(), log), opts);
  if (typeof chosen === "string") {
    log(`bench: ${chosen}`);
    return EXIT.badInput;
  }
  const resultsDir = opts.results !== undefined ? userPath(opts.results) : join(repoRoot(), "results", new Date().toISOString().replace(/[:.]/g, "-"));
  mkdirSync(resultsDir, { recursive: true });
  const cache = cacheRoot();
  mkdirSync(cache, { recursive: true });
  const interrupted = trapSignals();

  let broker: KafkaBroker | undefined;
  if (!opts.bootstrap) {
    try {
      mkdirSync(join(cache, "kafka"), { recursive: true });
      broker = await KafkaBroker.start({ cacheDir: join(cache, "kafka"), logFile: join(resultsDir, "broker.log"), log });
    } catch (error) {
      log(`bench: ${(error as Error).message}`);
      return EXIT.couldNotRun;
    }
  }
  const bootstrap = opts.bootstrap ?? (broker as KafkaBroker).bootstrap;
  const serving: ServingHolder = {};
  const progress = new RunProgress();
  let sitting: Sitting;
  let admin: KafkaAdmin | undefined;
  let bench: BenchContext | undefined;
  let brokerGone: string | undefined;
  try {
    sitting = await openSitting(chosen, opts, { bootstrap, broker, resultsDir, serving });
    admin = await KafkaAdmin.connect(bootstrap);
    const { reference, fixtures, out } = sitting;
    const brokerPid = broker?.pid ?? localListenerPid(bootstrap);
    bench = benchContext({ opts, admin, reference, bootstrap, brokerPid, cache, resultsDir, results: out.results, progress, interrupted, fixtures });
    if (broker) allowBrokerRestart(bench, broker);
    if (sitting.runnable.length > 0) serving.target = await startServingFor(bench, opts, out.results);
    brokerGone = await runRows(sitting.runnable, opts, bench, out, serving.target);
  } catch (error) {
    if (!(error instanceof CouldNotRun)) throw error;
    log(`bench: ${error.message}`);
    return EXIT.couldNotRun;
  } finally {
    // An audit still reading needs the broker: it ends (or fails) before the broker stops.
    await bench?.quiet?.().catch(() => undefined);
    await serving.target?.stop();
    progress.stop();
    await admin?.close().catch(() => undefined);
    await broker?.stop();
  }
  return finish(sitting.out, resultsDir, interrupted() !== undefined, brokerGone);
}

/** The model server once it has started: the served rows' address is read from it when a row starts. */
interface ServingHolder {
  target?: ServingTarget;
}

/** A sitting's model, the gate's records scored by it, its results, and the rows that can run in it. */
interface Sitting {
  reference: ReferenceModel;
  fixtures: GateRecord[];
  out: ResultsOut;
  runnable: Product[];
}

/**
 * Opens the sitting: one model for every row, the results file's head, and the chosen rows that can
 * run under its guarantee and serving; the others are kept as skipped rows with why.
 */
async function openSitting(
  chosen: Product[],
  opts: BenchOptions,
  at: { bootstrap: string; broker: KafkaBroker | undefined; resultsDir: string; serving: ServingHolder },
): Promise<Sitting> {
  // Every app the bench starts inherits it (core's loaders read it): one model for every row.
  process.env.BENCH_MODEL = opts.model;
  const reference = await ReferenceModel.load(modelsDir(), opts.model);
  const fixtures = await gateRecordsScored(fixturesDir(), (rows) => reference.score(Float32Array.from(rows.flat())));
  const results = await newResults(at.bootstrap, at.broker, reference.card, opts.guarantee);
  const out: ResultsOut = { results, file: join(at.resultsDir, "results.json") };
  const served = servedRows(offeringTheGuarantee(chosen, opts, keeper(out)), opts.serving, () => (at.serving.target as ServingTarget).address());
  for (const { product, reason } of served.skipped) {
    log(`== ${product.id}: not run — ${reason}`);
    keeper(out)(skipped(product, reason, runSettings(product, opts)));
  }
  if (opts.agreement) {
    out.sweep = { results: { ...results, runs: [], sweeps: [] }, file: join(at.resultsDir, "sweep", "results.json") };
    mkdirSync(dirname(out.sweep.file), { recursive: true });
  }
  return { reference, fixtures, out, runnable: served.runnable };
}

/** The model server the served rows call (none when embedded); its CPU is counted in their ticks when it is the bench's own. */
async function startServingFor(bench: BenchContext, opts: BenchOptions, results: BenchResults): Promise<ServingTarget | undefined> {
  const serving = await startServing({ ...opts, cacheRoot: bench.cacheDir, modelsDir: modelsDir(), resultsDir: bench.resultsDir, log }).catch(
    (error: Error) => {
      throw new CouldNotRun(`the model server: ${error.message}`);
    },
  );
  results.serving = serving?.record;
  // A user's server is not sampled: a share of 0 in each tick would read as a server that cost nothing.
  if (serving?.record.cpuCounted) bench.modelServer = serving;
  const killable = serving?.killAndRestart;
  if (killable) bench.killModelServer = (how) => killable(how);
  return serving;
}

/**
 * The runnable rows: the main command's searches and rounds, or each row in turn (fixed rates, a
 * sweep, faults, an agreement sitting). Returns why the broker went, when it did.
 */
async function runRows(runnable: Product[], opts: BenchOptions, bench: BenchContext, out: ResultsOut, serving?: ServingTarget): Promise<string | undefined> {
  if (opts.profile || ((opts.sweep || mainCommandChosen(opts)) && opts.profile !== false)) await prepareProfilers(log);
  await prepareYardstick(bench);
  await prepareOutputReader(bench);
  let brokerGone: string | undefined;
  if (mainCommandChosen(opts)) {
    const afterRound = inTurn([
      await modelAloneRounds({ cacheRoot: bench.cacheDir, modelsDir: modelsDir(), model: opts.model, log }, out.results),
      serving?.record.cpuCounted ? serverAloneRounds({ serving, modelsDir: modelsDir(), log }, out.results) : undefined,
    ]);
    const parts = mainCommandParts(opts, bench, out, (gone) => (brokerGone = gone));
    await mainCommand(runnable, { ...parts, ...(afterRound ? { afterRound } : {}) }, bench);
  }
  brokerGone ??= await productRows(mainCommandChosen(opts) ? [] : runnable, opts, bench, out);
  await bench.quiet?.();
  return brokerGone;
}

/**
 * Each row in turn (row-fault.ts): an error that escapes a row fails that row with its reason and the
 * next row runs; a broker that no longer answers ends the bench. Returns why it ended early, if it did.
 */
async function productRows(rows: Product[], opts: BenchOptions, bench: BenchContext, out: ResultsOut): Promise<string | undefined> {
  for (const product of rows) {
    if (bench.interrupted()) return undefined;
    const failure = await rowFault(() => benchProduct(product, opts, { ...bench, admin: rowAdmin(bench.admin, product.id) }, out));
    if (failure === undefined) continue;
    log(`== ${product.id}: failed — ${failure.split("\n")[0]}`);
    keeper(out)(skipped(product, failure, runSettings(product, opts), "failed"));
    const gone = await brokerUnreachable(bench.bootstrap);
    if (gone) {
      log(`bench: ${gone}; no further row can run`);
      return gone;
    }
  }
  return undefined;
}

/** Why the bench cannot run at all (exit 1), as opposed to a run that failed. */
class CouldNotRun extends Error {}

/**
 * The rows that run under the bench's guarantee. Under exactly-once a row whose framework offers
 * none is kept as a skipped row with the reason its adapter gives, so the page says why it is absent.
 */
function offeringTheGuarantee(chosen: Product[], opts: BenchOptions, keep: (run: RunResult) => void): Product[] {
  if (opts.guarantee !== "exactly-once") return chosen;
  return chosen.flatMap((product) => {
    const offer = product.exactlyOnce;
    if (offer?.offered) return [underExactlyOnce(product, offer)];
    const why = offer ? offer.why : "its adapter does not declare whether the framework offers exactly-once into Kafka";
    log(`== ${product.id}: not run — no exactly-once: ${why}`);
    keep(skipped(product, `${NO_EXACTLY_ONCE}${why}`, runSettings(product, opts)));
    return [];
  });
}

/**
 * The row as it runs under exactly-once: its delivery is the framework's transactional mechanism
 * (the page's first table and the faults tables print it), and a kill -9 has no way to lose records.
 */
function underExactlyOnce(product: Product, offer: Extract<ExactlyOnceOffer, { offered: true }>): Product {
  const { lossUnderKill: _atLeastOnceLoss, ...rest } = product;
  return { ...rest, row: { ...product.row, delivery: `exactly-once: ${offer.how}; ${offer.commits}` } };
}

/** The results file's head: the machine, its speed before any product ran, the broker, the model, its tolerance and the guarantee. */
async function newResults(bootstrap: string, broker: KafkaBroker | undefined, card: ModelCard, guarantee: Guarantee): Promise<BenchResults> {
  const speedReference = (await measureSpeedIndex()).recordsPerCpuSecond;
  log(`bench: speed index ${Math.round(speedReference)} reference records per CPU-second`);
  return {
    schema: 2,
    generatedAt: new Date().toISOString(),
    host: await describeHost(),
    speedIndexReference: speedReference,
    speedIndexVersion: SPEED_INDEX_VERSION,
    modelTolerance: card.tolerance,
    model: modelOf(card),
    guarantee,
    broker: { name: "Apache Kafka", version: broker?.version ?? "external", bootstrap, startedByRunner: broker !== undefined },
    runs: [],
  };
}

function benchContext(c: {
  opts: BenchOptions; admin: KafkaAdmin; reference: ReferenceModel; bootstrap: string; brokerPid: number | undefined; cache: string; resultsDir: string;
  results: BenchResults; progress: RunProgress; interrupted: () => string | undefined; fixtures: GateRecord[];
}): BenchContext {
  const windowSeconds = new Map<string, number>();
  let pending: Promise<unknown> = Promise.resolve();
  return {
    bootstrap: c.bootstrap,
    guarantee: c.opts.guarantee,
    // A broker given with --bootstrap that runs on this machine is harness too, not foreign load.
    ...(c.brokerPid !== undefined ? { brokerPid: c.brokerPid } : {}),
    admin: c.admin,
    reference: c.reference,
    fixtures: c.fixtures,
    repoRoot: repoRoot(),
    modelsDir: modelsDir(),
    cacheDir: c.cache,
    resultsDir: c.resultsDir,
    speedReference: c.results.speedIndexReference ?? 0,
    speedIndex: new SpacedSpeedIndex(SPEED_INDEX_SPACING_MS),
    runtimes: new SpacedRuntimes({ cacheDir: c.cache, modelsDir: modelsDir(), log }),
    log,
    onRunStart: (product, rate, seconds) => {
      windowSeconds.set(product, 0);
      c.progress.start(product, rate, seconds);
    },
    onTick: (product, phase, tick, perSec) => {
      const done = (windowSeconds.get(product) ?? 0) + (phase === "window" ? 1 : 0);
      windowSeconds.set(product, done);
      const left = phase === "drain" ? 0 : c.opts.window - done + (phase === "settle" ? Math.max(0, c.opts.warmup - tick.t) : 0);
      c.progress.update(product, phase, left, tick, perSec.offered, perSec.consumed);
    },
    onRunEnd: () => c.progress.stop(),
    afterwards: (work) => {
      pending = Promise.all([pending, work]);
      // Handled here so that a failure waits for quiet() to be thrown, not for Node's unhandled-rejection exit.
      pending.catch(() => undefined);
    },
    quiet: async () => {
      await pending;
    },
    interrupted: c.interrupted,
  };
}

/** A results set and the file it is written to. */
interface ResultsFile {
  results: BenchResults;
  file: string;
}

/** Where a bench's results go, and with --agreement the sweep's beside them. */
interface ResultsOut extends ResultsFile {
  sweep?: ResultsFile;
}

/** The main command's parts: preparing a product (a skipped row when it cannot run), keeping runs and searches. */
function mainCommandParts(opts: BenchOptions, bench: BenchContext, out: ResultsOut, onBrokerGone: (why: string) => void): MainCommandParts {
  return {
    prepare: async (product) => {
      const prepared = await prepareProduct(product, bench);
      if (prepared.ok) return prepared;
      log(`== ${product.id}: not run — ${prepared.reason}`);
      keeper(out)(skipped(product, prepared.reason, runSettings(product, opts)));
      return undefined;
    },
    settings: (product) => runSettings(product, opts),
    keep: keeper(out),
    keepSearch: (audited) => keepSearch(bench, audited, out),
    write: () => writeResults(out.file, out.results),
    results: out.results,
    budgetSec: opts.budget * 60,
    profileSec: opts.profile === false ? 0 : PROFILE_SEC,
    alsoAtKnee: opts.alsoAtKnee === true,
    rowFailed: async (product, why) => {
      log(`== ${product.id}: failed — ${why.split("\n")[0]}`);
      keeper(out)(skipped(product, why, runSettings(product, opts), "failed"));
      const gone = await brokerUnreachable(bench.bootstrap);
      if (gone !== undefined) {
        log(`bench: ${gone}; no further row can run`);
        onBrokerGone(gone);
      }
      return gone;
    },
  };
}

async function prepareProduct(product: Product, bench: BenchContext): Promise<Awaited<ReturnType<Product["prepare"]>>> {
  log(`\n== ${product.id}: preparing`);
  return product
    .prepare({ repoRoot: bench.repoRoot, modelsDir: bench.modelsDir, cacheDir: productCacheDir(bench.cacheDir, product), log })
    .catch((error: Error) => ({ ok: false as const, reason: `prepare threw: ${error.message}` }));
}

/**
 * One product: prepared, then faulted, swept, its knee found fast (and with --agreement swept too), or run `--repeat`
 * times at `--rate`; its results written after every run.
 */
async function benchProduct(product: Product, opts: BenchOptions, bench: BenchContext, out: ResultsOut): Promise<void> {
  const { results, file } = out;
  const settings = runSettings(product, opts);
  const prepared = await prepareProduct(product, bench);
  if (!prepared.ok) {
    log(`== ${product.id}: not run — ${prepared.reason}`);
    for (const o of [out, out.sweep]) if (o) keeper(o)(skipped(product, prepared.reason, settings));
  } else if (opts.faults) {
    await faultProduct(product, prepared, settings, opts.knees?.get(product.id), bench, results, () => writeResults(file, results));
  } else if (opts.sweep) {
    await sweepInto(out, product, prepared, settings, opts, bench);
  } else if (!ratesGiven(opts.rate)) {
    const { audited } = await fastKneeProduct(product, prepared, settings, bench, keeper(out));
    keepSearch(bench, audited, out);
    // The sweep minutes after the fast search: the host's speed moves over minutes, not seconds.
    if (out.sweep) await sweepInto(out.sweep, product, prepared, settings, opts, { ...bench, resultsDir: dirname(out.sweep.file) });
  } else {
    for (let i = 1; i <= opts.repeat && !bench.interrupted(); i++) {
      log(
        `== ${product.id}: ${settings.rate}/s${opts.repeat > 1 ? ` (run ${i} of ${opts.repeat})` : ""}, ` +
          `window after ≥${opts.warmup}s once the backlog settles (at most ${opts.settleTimeout}s), ${opts.window}s measured`,
      );
      const run = await measureRun(product, prepared, settings, bench);
      log(`== ${product.id}: ${runSummary(run)}`);
      keeper(out)(run);
      if (run.status === "failed" || run.status === "invalid") break;
    }
  }
}

function runSettings(product: Product, opts: BenchOptions): RunSettings {
  return {
    rate: opts.rate.byProduct.get(product.id) ?? opts.rate.fallback ?? DEFAULT_RATE,
    warmupSec: opts.warmup,
    settleCapSec: opts.settleTimeout,
    windowSec: opts.window,
    parallelism: opts.parallelism,
    seed: FIXTURE_SEED,
    drainTimeoutSec: opts.drainTimeout,
    hangSec: opts.hang,
    profileSec: opts.profile === true || (opts.sweep && opts.profile !== false) ? PROFILE_SEC : 0,
  };
}

/** A run kept in the results, and the file written at once (an interruption keeps what was measured). */
const keeper = (o: ResultsFile) => (run: RunResult): void => {
  o.results.runs.push(run);
  writeResults(o.file, o.results);
};

/** The sweep of one product into `o`. */
async function sweepInto(o: ResultsFile, product: Product, prepared: Prepared, settings: RunSettings, opts: BenchOptions, bench: BenchContext): Promise<void> {
  const { audited } = await sweepProduct(product, prepared, settings, opts.sweepResolution, bench, keeper(o));
  keepSearch(bench, audited, o);
}

/** A search's record, kept once its session's audit has read (it reads on while the bench prepares the next product). */
function keepSearch(bench: BenchContext, audited: Promise<SweepRecord>, o: ResultsFile): void {
  bench.afterwards?.(
    audited.then((found) => {
      (o.results.sweeps ??= []).push(found);
      // stoppedBecause names the drain's rate and whether it stood as the ceiling.
      const what = `${found.method === "fast" ? "" : "sweep "}knee ${found.knee ?? "none"}${found.confirmed ? " (confirmed)" : ""}`;
      log(`== ${found.product}: ${what} — ${found.stoppedBecause}`);
      writeResults(o.file, o.results);
    }),
  );
}

/** results.json, page.md, page.html and the Arrow files (with --agreement the sweep's too, in sweep/); the page on stdout; the exit code with its reason. */
function finish(out: ResultsOut, resultsDir: string, interrupted: boolean, brokerGone?: string): number {
  const { results } = out;
  if (out.sweep) writeOutputs(out.sweep.results, dirname(out.sweep.file));
  const page = writeOutputs(results, resultsDir, out.sweep?.results);
  console.log(page);
  log(
    `\nresults: ${out.file}\npage:    ${join(resultsDir, "page.md")}\nhtml:    ${join(resultsDir, "page.html")}` +
      `${out.sweep ? `\nsweep:   ${out.sweep.file}` : ""}`,
  );
  const runs = [...results.runs, ...(out.sweep?.results.runs ?? [])];
  const code = exitCodeFor(
    runs, interrupted, results.faults, [...(results.brokerRestarts ?? []), ...(results.overloads ?? []), ...(results.serverKills ?? [])], results.guarantee,
    brokerGone !== undefined,
  );
  if (code === EXIT.couldNotRun) log(`bench: ended early (exit 1): ${brokerGone ?? "the broker could not be reached"}`);
  if (code === EXIT.faultLoss) {
    const broke = results.guarantee === "exactly-once" ? "lost or duplicated" : "lost";
    log(`bench: a fault run ${broke} records (exit 5): the Faults table says which product and why`);
  }
  if (code === EXIT.failedOrInvalid) log("bench: at least one run failed or was invalid (exit 3): its row is marked, and it is not a result");
  if (code === EXIT.noisy) {
    log(
      "bench: at least one run was measured on a busy machine (exit 4: foreign load or steal over its bound): " +
        "its row is marked; re-run on a quiet machine",
    );
  }
  return code;
}

/** One results set's files in `dir`; returns the page (with the agreement table when `agreeWith` is given). */
function writeOutputs(results: BenchResults, dir: string, agreeWith?: BenchResults): string {
  mkdirSync(dir, { recursive: true });
  writeResults(join(dir, "results.json"), results);
  const page = renderPage(results, { agreeWith });
  writeFileSync(join(dir, "page.md"), page);
  writeHtmlPage(join(dir, "page.html"), results, { agreeWith });
  writeArrowFiles(dir, results);
  return page;
}

/** A row that did not run (skipped), or whose runs ended in an error that escaped them (failed), with the reason. */
function skipped(product: Product, reason: string, settings: RunSettings, status: "skipped" | "failed" = "skipped"): RunResult {
  return {
    product: product.id,
    status,
    reason,
    startedAt: new Date().toISOString(),
    settings: {
      offeredRate: settings.rate,
      warmupSec: settings.warmupSec,
      windowSec: settings.windowSec,
      parallelism: settings.parallelism,
      seed: settings.seed,
    },
    row: product.row,
    versions: {},
    deviations: [],
    notes: productNotes(product),
    consumedSource: "",
    gendataWarnings: [],
    ticks: [],
  };
}
