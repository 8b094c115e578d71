/**
 * A drain run: the product's ceiling on one partition, measured without gendata competing for
 * the cores (OpenMessaging's backlog-drain workloads do the same).
 *
 *   pre-fill  the gate's fixtures, then DRAIN_BACKLOG generated records by gendata as fast as it
 *             goes, timed (prefilled-input.ts: once a bench, every row's drain run reads it)
 *   start     the product, against the full topic, with a fresh output topic and consumer group
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
import { FIXTURE_COUNT, misreadSeqs, type Prepared, type Product } from "@bench/core";
import { drainWindowEnd } from "../metrics/drain-window.ts";
import { WINDOW_STOP_RULE } from "../metrics/window-stop.ts";
import type { RunResult, Tick } from "../results/types.ts";
import { auditOutputs } from "./audit.ts";
import type { BenchContext } from "./context.ts";
import type { GendataProcess } from "./gendata-process.ts";
import { invalidReasons } from "./judge.ts";
import { emptyResult, harnessCost, shapedRun, windowFigures, type RunSettings } from "./measure.ts";
import type { Filled, PrefilledInput } from "./prefilled-input.ts";
import { planRun, RunSession } from "./session.ts";
import { verifyPrefilled } from "./verify-prefilled.ts";

export const DRAIN_WARMUP_SEC = 5;
export const DRAIN_TAIL_SEC = 5;

/** A drain run of `product` over `input` (filled on the first drain run of the bench). */
export async function drainRun(product: Product, prepared: Prepared, settings: RunSettings, bench: BenchContext, input: PrefilledInput): Promise<RunResult> {
  const drainSettings: RunSettings = { ...settings, rate: 0 };
  const plan = { ...planRun(product.id, "drain", bench.resultsDir), inputTopic: input.topic, sharedInput: true };
  const session = new RunSession(product, prepared, plan, drainSettings, bench);
  const result: RunResult = { ...emptyResult(product, prepared, drainSettings), sweepPurpose: "drain" };
  let filled: Filled | undefined;
  return shapedRun(session, result, {
    speedBeforeStart: true,
    beforeStart: async () => {
      filled = await input.get();
      result.prefill = filled.record;
    },
    gate: () =>
      verifyPrefilled({
        bootstrap: bench.bootstrap,
        outputTopic: session.plan.outputTopic,
        fixtures: bench.fixtures,
        firstGeneratedSeq: FIXTURE_COUNT,
        tolerance: bench.reference.card.tolerance,
        passthrough: product.passthrough === true,
        ...(product.spellingFindings ? { findings: product.spellingFindings } : {}),
        timeoutMs: 180_000,
        aborted: session.aborted,
      }),
    phases: () => drainPhases(session, result, (filled as Filled).gendata),
  });
}

/** settle, window, tail, audit of a drain run, into `result`. */
async function drainPhases(session: RunSession, result: RunResult, filler: GendataProcess): Promise<void> {
  const { bench, product, plan } = session;
  const { watch, ticker } = session.watch(filler);
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
    unscored: misreadSeqs(product.spellingFindings, bench.fixtures),
    // Every record waited in the backlog: end-to-end latency says nothing here, so none is taken.
    windowMs: [0, 0],
    ...(waiting(last) ? { heldTo: last.consumed } : {}),
  });
  const invalid = invalidReasons({ verification: result.verification!, delivery: result.delivery, undrained: 0, drainTimeoutSec: session.basics.drainTimeoutSec });
  result.status = invalid.length > 0 ? "invalid" : "ok";
  if (invalid.length > 0) result.reason = invalid.join("; ");
}
