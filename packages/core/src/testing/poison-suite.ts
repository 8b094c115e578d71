/**
 * The poison-pill test every row runs, written once: the row skips each malformed record among
 * the fixtures, says so in the one skip-line format read from its log tail, counts it, scores
 * every good record around it (the gate, as the bench's passes it), keeps running and stops
 * cleanly.
 */
import type { Product, ProductExit } from "../adapter.ts";
import { LOG_TAIL_LINES } from "../child-process.ts";
import { GENERATED_FIXTURE_COUNT } from "../fixtures.ts";
import { FIXTURE_COUNT } from "../gate-records.ts";
import { poisonSchedule, refusalPills, type PoisonPill } from "../poison.ts";
import { readSkipLines } from "../skip-lines.ts";
import { requireBootstrap } from "./bootstrap.ts";
import { expectGatePassed, expectSkipLines } from "./expectations.ts";
import { scoreFixturesThroughProduct, type FixtureRunOptions, type LiveFixtureRun } from "./fixture-run.ts";

/** Two rounds of every kind, placed among the generated fixtures after the first. */
export const POISON_PILLS: readonly PoisonPill[] = poisonSchedule({ seed: 7, rounds: 2, firstSeq: 1, span: GENERATED_FIXTURE_COUNT - 1 });

/**
 * What a row is held to refuse: the pills, and the gate's must-refuse cases (core's REFUSAL_CASES)
 * among the same fixtures, less the cases the row declares it reads (Product.poisonFindings).
 */
export function mustRefuse(product: Pick<Product, "poisonFindings">): PoisonPill[] {
  const refusals = refusalPills(1, GENERATED_FIXTURE_COUNT - 1, new Set(Object.keys(product.poisonFindings ?? {})));
  return [...POISON_PILLS, ...refusals].sort((a, b) => a.beforeSeq - b.beforeSeq);
}

export interface PoisonSuiteOptions extends Pick<FixtureRunOptions, "cacheDir" | "parallelism" | "readTimeoutMs" | "consumedTimeoutMs" | "log"> {
  /**
   * The framework drops a record it cannot parse without a word per record (Flink's JSON format
   * does): its skips are the consumed records that did not come out, and it prints no skip line.
   */
  silentSkips?: boolean;
  /** How the row's stop ends, where it promises one (e.g. exit code 0). */
  stopExit?: ProductExit;
  /** What else the row checks on the live run before it is stopped. */
  alsoCheck?: (run: LiveFixtureRun) => void | Promise<void>;
  /** Defaults to 900 s: a row's first prepare may build its environment. */
  timeoutMs?: number;
}

async function poisonPillTest(product: Product, opts: PoisonSuiteOptions, started: (run: LiveFixtureRun) => void): Promise<void> {
  const { cacheDir, parallelism, readTimeoutMs, consumedTimeoutMs, log } = opts;
  const runOptions = { cacheDir, parallelism, readTimeoutMs, consumedTimeoutMs, log };
  const pills = mustRefuse(product);
  const run = await scoreFixturesThroughProduct(
    product,
    { ...runOptions, bootstrap: requireBootstrap(), topicPrefix: `${product.id}-poison-it`, poison: pills, keepRunning: true },
  );
  started(run);
  expectGatePassed(run);
  expect(run.inputCount).toBe(FIXTURE_COUNT + pills.length);
  // Skipped, not stuck: the pills' offsets are consumed too.
  expect(run.consumed).toBe(run.inputCount);
  const tail = run.running.logTail(LOG_TAIL_LINES);
  if (opts.silentSkips) {
    // Its skipped count is consumed - outputs, which the checks above hold to the pill count; no line may claim another.
    expect(readSkipLines(tail)).toEqual({ skips: [], malformed: [] });
  } else {
    expectSkipLines(tail, run.pillOffsets);
  }
  await opts.alsoCheck?.(run);
  const stopped = await run.stop();
  // A stop that was not clean says why in the product's own words.
  if (stopped.aliveAfterStop.length > 0 || (opts.stopExit && stopped.exit.code !== opts.stopExit.code)) console.log(
    `${product.id} log after stop:\n${run.running.logTail(40)}`,
  );
  expect(stopped).toEqual({ exit: opts.stopExit ?? expect.anything(), aliveAfterStop: [] });
}

/** The poison-pill test of one row, as a describe block of its own. */
export function describePoisonPills(product: Product, opts: PoisonSuiteOptions): void {
  describe(`${product.id} with poison pills`, () => {
    let run: LiveFixtureRun | undefined;
    afterAll(async () => {
      await run?.stop();
    });

    const skips = opts.silentSkips ? "skips every pill (counted as consumed - outputs)" : "skips every pill with its skip line and counts it";
    it(
      `${skips}, scores every good record around them, keeps running and stops cleanly`,
      () => poisonPillTest(product, opts, (started) => (run = started)),
      opts.timeoutMs ?? 900_000,
    );
  });
}
