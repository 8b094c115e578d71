/**
 * The verification gate, before any timing (TechEmpower's verify step): the product scores
 * the committed fixtures, the 256 generated records and then every spelling case as its exact
 * raw text (fixtures/spellings.jsonl: pretty-printed, escaped, near the size limit, …); every
 * output must carry its record's exact event id and the reference model's risk within the card's
 * tolerance. A product that fails is not timed, and the failure names the fixture case.
 * It doubles as the readiness check: a product that has scored the fixtures is consuming.
 */
import { fixtureLabel, produceMessages, readTopic, seqOfEventId, type GateRecord } from "@bench/core";
import type { VerificationResult } from "../results/types.ts";
import { outputHead, readOutput } from "./output-read.ts";

/** Which fixture an output that could not be read was probably for: the first "e<seq>" after "event_id" in its bytes. */
function probableFixture(value: Buffer, fixtures: readonly GateRecord[]): string {
  const seq = seqOfEventId(/"event_id"\s*:\s*"(e\d+)/.exec(value.toString("utf8"))?.[1] ?? "");
  const fixture = fixtures.find((f) => seqOfEventId(f.eventId) === seq);
  return fixture ? ` (probably ${fixtureLabel(fixture)})` : "";
}

/** Outputs held to the fixtures one at a time: the first problem, and the largest risk error with its fixture. */
export class GateCheck {
  readonly seen = new Set<string>();
  problem: string | undefined;
  maxError = 0;
  worst: GateRecord | undefined;
  private readonly expected: Map<string, GateRecord>;

  constructor(private readonly fixtures: readonly GateRecord[], private readonly passthrough: boolean) {
    this.expected = new Map(fixtures.map((f) => [f.eventId, f]));
  }

  add(offset: number, value: Buffer): void {
    const read = readOutput(value);
    if (!read.ok) {
      this.problem ??= `output at offset ${offset} is ${read.why}${probableFixture(value, this.fixtures)}: ${outputHead(value)}`;
      return;
    }
    const fixture = this.expected.get(read.eventId);
    if (!fixture) {
      const seq = seqOfEventId(read.eventId);
      const meant = this.fixtures.find((f) => seq !== undefined && seqOfEventId(f.eventId) === seq);
      this.problem ??= `output at offset ${offset} carries unknown event_id ${JSON.stringify(read.eventId)}${meant ? ` (${fixtureLabel(meant)} expected)` : ""}`;
      return;
    }
    this.seen.add(fixture.eventId);
    if (this.passthrough) return;
    const error = typeof read.risk === "number" ? Math.abs(read.risk - fixture.risk) : Number.NaN;
    if (!Number.isFinite(error)) this.problem ??= `${fixtureLabel(fixture)}: risk ${JSON.stringify(read.risk) ?? "missing"} is not a number`;
    else if (error > this.maxError) [this.maxError, this.worst] = [error, fixture];
  }

  /** Why the gate fails after the reading, if it does. */
  verdict(tolerance: number, timeoutMs: number): string | undefined {
    if (this.problem !== undefined) return this.problem;
    if (this.seen.size < this.expected.size) {
      const missing = this.fixtures.filter((f) => !this.seen.has(f.eventId));
      const named = missing.slice(0, 3).map(fixtureLabel).join(", ");
      return `only ${this.seen.size} of ${this.expected.size} fixture records came out within ${timeoutMs / 1000}s; missing ${named}${missing.length > 3 ? ", …" : ""}`;
    }
    if (this.maxError > tolerance && this.worst) {
      return `largest risk error ${this.maxError.toExponential(2)} (${fixtureLabel(this.worst)}) exceeds the card's tolerance ${tolerance}`;
    }
    return undefined;
  }
}

export async function verifyProduct(opts: {
  bootstrap: string;
  inputTopic: string;
  outputTopic: string;
  fixtures: readonly GateRecord[];
  tolerance: number;
  passthrough: boolean;
  timeoutMs: number;
  aborted: () => string | undefined;
}): Promise<VerificationResult> {
  const check = new GateCheck(opts.fixtures, opts.passthrough);
  const fixtures = opts.fixtures.length;
  // As written: a spelling case's exact text, with its key or none, never re-stringified.
  await produceMessages(opts.bootstrap, opts.inputTopic, opts.fixtures.map((f) => ({ key: f.key, value: f.value })));
  let outputsRead = 0;
  const deadline = Date.now() + opts.timeoutMs;
  while (check.seen.size < fixtures && check.problem === undefined && Date.now() < deadline) {
    const abort = opts.aborted();
    if (abort) return { passed: false, checked: check.seen.size, fixtures, maxError: check.maxError, problem: abort };
    await readTopic(
      opts.bootstrap,
      opts.outputTopic,
      (batch) => {
        for (const m of batch) {
          outputsRead++;
          check.add(m.offset, m.value);
        }
      },
      { fromOffset: outputsRead, stopAt: fixtures - check.seen.size, idleMs: 3_000, timeoutMs: Math.max(1000, deadline - Date.now()) },
    );
  }
  const problem = check.verdict(opts.tolerance, opts.timeoutMs);
  return { passed: problem === undefined, checked: check.seen.size, fixtures, maxError: check.maxError, ...(problem ? { problem } : {}) };
}
