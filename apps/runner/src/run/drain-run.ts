/**
 * A drain run: the product's ceiling on one partition, measured without gendata competing for
 * the cores (OpenMessaging's backlog-drain workloads do the same).
 *
 *   pre-fill  fresh topics; the gate's fixtures, then DRAIN_BACKLOG generated records by gendata
 *             as fast as it goes (timed: its rate and CPU are kept, and bound the paced runs)
 *   start     the product, against the full topic
 *   gate      the fixtures' outputs checked before any timing (verify-prefilled.ts)
 *   settle    DRAIN_WARMUP_SEC of draining (JIT, first full-size fetches)
 *   window    until the µs per record is known (window-stop.ts) or the backlog is about to end
 *   tail      at most DRAIN_TAIL_SEC more; a product still draining then is stopped
 *   audit     every output read: the committed prefix (all of it when the backlog drained) held
 *             to done, every output checked for bad outputs and scores
 *
 * Drain rate = ceiling; its µs per record is CPU per record at saturation. A run stopped before
 * the backlog ended holds only what it committed by its last tick (delivery.heldTo says so):
 * what it did past that is not required of it, and would cost a slow row a minute to wait for.
 */
import { FIXTURE_COUNT, produceMessages, type Prepared, type Product } from "@bench/core";
import { join } from "node:path";
import { drainWindowEnd } from "../metrics/drain-window.ts";
import { WINDOW_STOP_RULE } from "../metrics/window-stop.ts";
import type { PrefillRecord, RunResult, Tick } from "../results/types.ts";
import { auditOutputs } from "./audit.ts";
import type { BenchContext } from "./context.ts";
import { GendataProcess } from "./gendata-process.ts";
import { invalidReasons } from "./judge.ts";
import { emptyResult, harnessCost, shapedRun, windowFigures, type RunSettings } from "./measure.ts";
import { planRun, RunSession } from "./session.ts";
import { verifyPrefilled } from "./verify-prefilled.ts";

/**
 * Records pre-filled: about 15 s of gendata alone (~200k/s), enough for the fastest row on the
 * committed pages (node-passthrough, ~175k/s) to drain through its gate, settle and a 10 s window.
 */
export const DRAIN_BACKLOG = 3_000_000;
/** Asked of gendata while it pre-fills: far above what it can do, so it goes as fast as it can. */
const PREFILL_RATE = 100_000_000;
export const DRAIN_WARMUP_SEC = 5;
export const DRAIN_TAIL_SEC = 5;

/** `backlog`: records pre-filled (tests use fewer). */
export async function drainRun(product: Product, prepared: Prepared, settings: RunSettings, bench: BenchContext, backlog = DRAIN_BACKLOG): Promise<RunResult> {
  const drainSettings: RunSettings = { ...settings, rate: 0 };
  const session = new RunSession(product, prepared, planRun(product.id, "drain", bench.resultsDir), drainSettings, bench);
  const result: RunResult = { ...emptyResult(product, prepared, drainSettings), sweepPurpose: "drain" };
  return shapedRun(session, result, {
    speedBeforeStart: true,
    beforeStart: async () => {
      result.prefill = await prefill(session, backlog);
    },
    gate: () =>
      verifyPrefilled({
        bootstrap: bench.bootstrap,
        outputTopic: session.plan.outputTopic,
        fixtures: bench.fixtures,
        firstGeneratedSeq: FIXTURE_COUNT,
        tolerance: bench.reference.card.tolerance,
        passthrough: product.passthrough === true,
        timeoutMs: 180_000,
        aborted: session.aborted,
      }),
    phases: () => drainPhases(session, result),
  });
}

/** The fixtures, then the backlog by gendata at full speed, timed; gendata has exited when this returns. */
async function prefill(session: RunSession, backlog: number): Promise<PrefillRecord> {
  const { bench, plan, basics } = session;
  // As written: a spelling case's exact text, with its key or none (as verify.ts produces them).
  await produceMessages(bench.bootstrap, plan.inputTopic, bench.fixtures.map((f) => ({ key: f.key, value: f.value })));
  const gendata = new GendataProcess({ bootstrap: bench.bootstrap, topic: plan.inputTopic, rate: PREFILL_RATE, seed: basics.seed, startSeq: FIXTURE_COUNT, count: backlog, logFile: join(plan.runDir, "gendata.log") });
  session.gendata = gendata;
  const final = await gendata.finished();
  if (!final || final.delivered < backlog || final.t <= 0) {
    throw new Error(`gendata could not pre-fill ${backlog} records (${final ? `${final.delivered} acknowledged` : "no final report"}): ${gendata.logTail()}`);
  }
  return { records: final.delivered, seconds: final.t, ratePerSec: final.delivered / final.t, gendataCpuPercent: (final.cpuSeconds / final.t) * 100 };
}

/** settle, window, tail, audit of a drain run, into `result`. */
async function drainPhases(session: RunSession, result: RunResult): Promise<void> {
  const { bench, product, plan } = session;
  const { watch, ticker } = session.watch(session.gendata as GendataProcess);
  result.ticks = ticker.ticks;
  result.gendataWarnings = ticker.gendataWarnings;
  let before = await ticker.next("settle");
  while (before.t < DRAIN_WARMUP_SEC) before = await ticker.next("settle");
  result.settleSec = before.t;

  const window: Tick[] = [];
  let end: ReturnType<typeof drainWindowEnd>;
  do {
    window.push(await ticker.next("window"));
    end = drainWindowEnd([before, ...window], WINDOW_STOP_RULE);
  } while (end === undefined);

  let last = window[window.length - 1] as Tick;
  const tailFrom = last.t;
  const waiting = (t: Tick): boolean => t.consumed < t.inputEnd || t.outputEnd < t.inputEnd;
  while (waiting(last) && last.t - tailFrom < DRAIN_TAIL_SEC) last = await ticker.next("drain");

  Object.assign(result, windowFigures(window, await session.extraRecords(), last.consumed), { harness: harnessCost(ticker.windowHarness, watch.costPercent()) });
  // A window cut short by the backlog's end before its figure was known is no steady figure.
  result.settled = end === "known";
  result.delivery = await auditOutputs({
    bootstrap: bench.bootstrap,
    outputTopic: plan.outputTopic,
    produced: last.inputEnd,
    outputEnd: await bench.admin.endOffset(plan.outputTopic),
    seed: session.basics.seed,
    reference: bench.reference,
    passthrough: product.passthrough === true,
    tolerance: bench.reference.card.tolerance,
    // Every record waited in the backlog: end-to-end latency says nothing here, so none is taken.
    windowMs: [0, 0],
    ...(waiting(last) ? { heldTo: last.consumed } : {}),
  });
  const invalid = invalidReasons({ verification: result.verification!, delivery: result.delivery, undrained: 0, drainTimeoutSec: session.basics.drainTimeoutSec });
  result.status = invalid.length > 0 ? "invalid" : "ok";
  if (invalid.length > 0) result.reason = invalid.join("; ");
}
