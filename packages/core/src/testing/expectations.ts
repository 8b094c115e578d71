/** What the integration tests assert of a fixture run, each written once. */
import type { ConsumedSource } from "../adapter.ts";
import { FIXTURE_COUNT } from "../gate-records.ts";
import { readSkipLines, skipCountsProblem } from "../skip-lines.ts";
import { SPELLING_CASES } from "../spellings.ts";
import type { LiveFixtureRun } from "./fixture-run.ts";

/**
 * Every gate record came out with its id, ts_ms and (a scoring row) a risk within the card's
 * tolerance, but for the spelling cases the row declares a finding for, each held to it.
 */
export function expectGatePassed(run: Pick<LiveFixtureRun, "gate" | "outputs" | "findings">): void {
  const declared = SPELLING_CASES.map((c) => c.name).filter((name) => name in run.findings);
  const findings = declared.length > 0 ? { declared } : {};
  expect(run.gate).toEqual({ passed: true, checked: FIXTURE_COUNT, fixtures: FIXTURE_COUNT, maxError: expect.any(Number), ...findings });
  expect(run.outputs.size).toBe(FIXTURE_COUNT);
}

/** A row's happy path: its roots alive once started, consumed read where the row says, every gate record scored and consumed. */
export function expectScoredAndConsumed(run: LiveFixtureRun, consumedKind: ConsumedSource["kind"]): void {
  expect(run.aliveAtStart).toEqual(run.rootPids);
  expect(run.running.consumed.kind).toBe(consumedKind);
  expectGatePassed(run);
  expect(run.consumed).toBe(FIXTURE_COUNT);
}

/** One skip line per pill, at the pill's offset, in the one format, with running totals that count. */
export function expectSkipLines(log: string, pillOffsets: readonly number[]): void {
  const { skips, malformed } = readSkipLines(log);
  expect(malformed).toEqual([]);
  expect(skips.map((s) => s.offset).sort((a, b) => a - b)).toEqual(pillOffsets);
  expect(skipCountsProblem(skips.map((s) => s.count))).toBeUndefined();
}
