/**
 * After a run has drained: read the whole output topic once and account for every record
 * (audit-account.ts: lost, duplicated, and bad outputs counted with their offsets, never
 * thrown); a sample of outputs is re-scored against the reference model; end-to-end latency
 * is each window record's output broker timestamp minus its produce time. A large topic is
 * read in offset ranges at once, one reader per core (audit-part.ts), and their tallies added.
 */
import { availableParallelism } from "node:os";
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { buildOutputReader, makeTemplate, normalise, POOL_SIZE, type ReferenceModel } from "@bench/core";
import type { BenchContext } from "./context.ts";
import type { DeliveryCheck, OpenTransaction } from "../results/types.ts";
import { stableOutput } from "./audit-transaction.ts";
import { OutputAccount } from "./audit-account.ts";
import { auditPart, WindowLatency, type PartRequest, type PartResult } from "./audit-part.ts";

/** About this many outputs are re-scored per run, spread evenly. */
const SCORE_SAMPLE = 20_000;

/** Below this many outputs one reader in this process is quicker than starting child processes (~1 s each). */
const SPLIT_FROM = 400_000;

/** At most this many readers: each holds a count per produced record and a prefetch queue. */
const MAX_READERS = 4;

export async function auditOutputs(opts: {
  bootstrap: string;
  outputTopic: string;
  /** Every produced record has seq < produced (fixtures first, then gendata's). */
  produced: number;
  outputEnd: number;
  seed: number;
  reference: ReferenceModel;
  passthrough: boolean;
  /** The model card's tolerance: a checked risk further than this from the reference is mis-scored. */
  tolerance: number;
  /** Produce-time range of the measured window, for latency. */
  windowMs: [number, number];
  /** Further windows (a paced session's later steps): each gets its own latency in `latencyByWindow`. */
  moreWindowsMs?: Array<[number, number]>;
  /** Seqs whose outputs are not re-scored: the row's declared misread spelling cases (core's misreadSeqs). */
  unscored?: ReadonlySet<number>;
  /** A drain run stopped mid-backlog: only records below this seq must have come out (default: produced). */
  heldTo?: number;
  /** How many readers split the topic (default: one per core, one alone for a small topic). */
  readers?: number;
  /** core's native output reader (its binary): each reader reads with it; absent: through the binding. */
  reader?: string;
  /** The row wrote in transactions (exactly-once): latency ends when a record's transaction commits. */
  transactional?: boolean;
}): Promise<DeliveryCheck> {
  // Read committed, the end is the last stable offset: an open transaction is waited for, or named (audit-transaction.ts).
  const stable = opts.transactional ? await stableOutput(opts.bootstrap, opts.outputTopic) : undefined;
  const unresolved = stable?.open !== undefined && !stable.open.ended;
  const outputEnd = stable ? (unresolved ? Math.min(opts.outputEnd, stable.readTo) : Math.max(opts.outputEnd, stable.readTo)) : opts.outputEnd;
  return readOutputs({ ...opts, outputEnd }, stable?.open);
}

/** The audit proper, to `outputEnd`; records a still-open transaction kept out of reach are unread, not lost. */
async function readOutputs(opts: Parameters<typeof auditOutputs>[0], open: OpenTransaction | undefined): Promise<DeliveryCheck> {
  const heldTo = Math.min(opts.heldTo ?? opts.produced, opts.produced);
  const stride = Math.max(1, Math.floor(opts.outputEnd / SCORE_SAMPLE));
  const windowsMs = [opts.windowMs, ...(opts.moreWindowsMs ?? [])];
  const readers = opts.readers ?? (opts.outputEnd < SPLIT_FROM ? 1 : Math.min(MAX_READERS, availableParallelism()));
  const base = {
    bootstrap: opts.bootstrap,
    outputTopic: opts.outputTopic,
    idleMs: 10_000,
    produced: opts.produced,
    passthrough: opts.passthrough,
    stride,
    windowsMs,
    ...(opts.unscored ? { unscored: [...opts.unscored] } : {}),
    ...(opts.reader !== undefined ? { reader: opts.reader } : {}),
    ...(opts.transactional ? { transactional: true } : {}),
  };
  // This process reads the first range itself: a child costs a process's memory.
  const parts = await Promise.all(splitOffsets(opts.outputEnd, readers).map(([from, until], i) => runPart({ ...base, from, until }, i > 0)));

  // Parts absorbed in offset order: the samples and the first bad outputs stay in topic order.
  const account = new OutputAccount({ produced: opts.produced, passthrough: opts.passthrough, stride });
  const windows = windowsMs.map(() => new WindowLatency());
  for (const part of parts) {
    account.absorb(part.tallies);
    part.latency.forEach((l, i) => windows[i]?.absorb(l));
  }

  const { distinct, duplicated, badOutputs, badOutputSamples, sampleSeqs, sampleRisks } = account.result(heldTo);
  let maxScoreError = 0;
  let misScored = 0;
  if (sampleSeqs.length > 0) {
    const features = Float32Array.from(sampleSeqs.flatMap((seq) => normalise(makeTemplate(opts.seed, seq % POOL_SIZE))));
    const expected = await opts.reference.score(features);
    sampleRisks.forEach((risk, i) => {
      const error = Math.abs(risk - (expected[i] as number));
      const counted = Number.isFinite(error) ? error : Number.POSITIVE_INFINITY;
      maxScoreError = Math.max(maxScoreError, counted);
      if (counted > opts.tolerance) misScored++;
    });
  }
  const notOut = heldTo - distinct;
  const unread = open && !open.ended ? notOut : 0;
  const check: DeliveryCheck = {
    produced: opts.produced,
    distinctOutputs: distinct,
    lost: notOut - unread,
    duplicated,
    scoresChecked: sampleSeqs.length,
    misScored,
    maxScoreError,
    badOutputs,
    badOutputSamples,
    ...(heldTo < opts.produced ? { heldTo } : {}),
    ...(open ? { openTransaction: open } : {}),
    ...(unread > 0 ? { unreadBehindOpenTransaction: unread } : {}),
  };
  const [firstWindow, ...more] = windows.map((w) => w.done());
  if (firstWindow) check.latencyMs = firstWindow;
  if (opts.moreWindowsMs) check.latencyByWindow = more;
  return check;
}

/**
 * Builds core's native output reader for the audit (once per compiler and source, cached);
 * without one the audit reads through the binding, several times slower, and the log says why.
 */
export async function prepareOutputReader(bench: BenchContext): Promise<void> {
  const built = await buildOutputReader(bench.cacheDir, bench.log);
  if ("binary" in built) bench.outputReader = built.binary;
  else bench.log(`bench: no native output reader (${built.why}): the audit reads through the JavaScript binding, about 6 µs of CPU a record`);
}

/** [from, until) offset ranges of about equal size covering [0, end); at least one. */
export function splitOffsets(end: number, parts: number): Array<[number, number]> {
  const n = Math.max(1, Math.min(parts, end));
  return Array.from({ length: n }, (_, i) => [Math.floor((end * i) / n), Math.floor((end * (i + 1)) / n)]);
}

/**
 * One part, here or in a child process of its own: the reading thread's work per record (the
 * binding's object, or the native reader's frame, then the accounting) is the bottleneck, and the
 * binding cannot load in a worker thread, so a second part in a child process reads faster than
 * one alone. The child runs TypeScript through tsx, resolved from the
 * runner's folder.
 */
function runPart(req: PartRequest, inChild: boolean): Promise<PartResult> {
  if (!inChild) return auditPart(req);
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(new URL("./audit-child.ts", import.meta.url)), [], {
      cwd: fileURLToPath(new URL("../..", import.meta.url)),
      execArgv: ["--import", "tsx"],
      serialization: "advanced",
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    child.once("message", (result) => resolve(result as PartResult));
    child.once("error", reject);
    child.once("exit", (code, signal) => reject(new Error(`audit reader for offsets ${req.from}..${req.until} ended (${signal ?? code}) before its result`)));
    child.send(req);
  });
}
