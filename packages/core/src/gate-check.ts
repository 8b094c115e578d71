/**
 * The verification gate's check of a product's outputs, one output at a time: each must carry
 * its fixture's exact event id and ts_ms and (a scoring row) the reference model's risk within
 * the card's tolerance. The bench's gate and every adapter's integration test read outputs
 * through this one class, so both hold a product to the same bar; a failure names the fixture.
 */
import { fixtureLabel, type GateRecord } from "./gate-records.ts";
import { outputHead, readOutput } from "./output-read.ts";
import { seqOfEventId } from "./schema.ts";
import { declaredFixtures, type SpellingFinding, type SpellingFindings } from "./spelling-findings.ts";

/** What the gate found: the runner keeps it as a run's verification. */
export interface GateResult {
  passed: boolean;
  /** Fixtures whose output came out (and was read before the first problem). */
  checked: number;
  /** Fixture records produced (generated and spelling cases). */
  fixtures: number;
  /** Largest |risk - reference| over the outputs read (0 for a passthrough row). */
  maxError: number;
  /** Why it failed, when it did. */
  problem?: string;
  /** The spelling cases the row declared a finding for (Product.spellingFindings) and was held to; absent when none. */
  declared?: string[];
}

/** Which fixture an output that could not be read was probably for: the first "e<seq>" after "event_id" in its bytes. */
function probableFixture(value: Uint8Array, fixtures: readonly GateRecord[]): string {
  const text = Buffer.from(value).toString("utf8");
  const seq = seqOfEventId(/"event_id"\s*:\s*"(e\d+)/.exec(text)?.[1] ?? "");
  const fixture = fixtures.find((f) => seqOfEventId(f.eventId) === seq);
  return fixture ? ` (probably ${fixtureLabel(fixture)})` : "";
}

/** Outputs held to the fixtures one at a time: the first problem, and the largest risk error with its fixture. */
export class GateCheck {
  /** The last output read for each fixture's event id (an at-least-once product may repeat some). */
  readonly outputs = new Map<string, Record<string, unknown>>();
  problem: string | undefined;
  maxError = 0;
  worst: GateRecord | undefined;
  private readonly expected: Map<string, GateRecord>;
  /** The row's declared findings, by event id. */
  private readonly declared: Map<string, SpellingFinding>;
  /** The risk error of each declared misread case's output: the check wants it beyond the tolerance. */
  private readonly misreadErrors = new Map<string, number>();

  constructor(
    private readonly fixtures: readonly GateRecord[],
    private readonly passthrough: boolean,
    findings: SpellingFindings = {},
  ) {
    this.expected = new Map(fixtures.map((f) => [f.eventId, f]));
    this.declared = declaredFixtures(findings, fixtures);
  }

  /** Fixtures seen so far. */
  get checked(): number {
    return this.outputs.size;
  }

  get complete(): boolean {
    return this.outputs.size === this.expected.size;
  }

  add(offset: number, value: Uint8Array): void {
    const read = readOutput(value);
    if (!read.ok) {
      this.problem ??= `output at offset ${offset} is ${read.why}${probableFixture(value, this.fixtures)}: ${outputHead(value)}`;
      return;
    }
    const fixture = this.expected.get(read.eventId);
    if (!fixture) {
      const seq = seqOfEventId(read.eventId);
      const meant = this.fixtures.find((f) => seq !== undefined && seqOfEventId(f.eventId) === seq);
      this.problem ??=
        `output at offset ${offset} carries unknown ` +
        `event_id ${JSON.stringify(read.eventId)}${meant ? ` (${fixtureLabel(meant)} expected)` : ""}`;
      return;
    }
    this.outputs.set(fixture.eventId, read.record);
    if (read.tsMs !== fixture.tsMs) this.problem ??= `${fixtureLabel(fixture)}: ts_ms ${JSON.stringify(read.tsMs) ?? "missing"}, expected ${fixture.tsMs}`;
    if (this.passthrough) return;
    const error = typeof read.risk === "number" ? Math.abs(read.risk - fixture.risk) : Number.NaN;
    if (!Number.isFinite(error)) this.problem ??= `${fixtureLabel(fixture)}: risk ${JSON.stringify(read.risk) ?? "missing"} is not a number`;
    // A declared misread is kept out of the largest error, and checked in the verdict instead.
    else if (this.declared.has(fixture.eventId)) this.misreadErrors.set(fixture.eventId, error);
    else if (error > this.maxError) [this.maxError, this.worst] = [error, fixture];
  }

  /** Why the gate fails after the reading, if it does. */
  verdict(tolerance: number, timeoutMs: number): string | undefined {
    if (this.problem !== undefined) return this.problem;
    if (!this.complete) {
      const missing = this.fixtures.filter((f) => !this.outputs.has(f.eventId));
      const named = missing.slice(0, 3).map(fixtureLabel).join(", ");
      return `only ${this.checked} of ${this.expected.size} fixture records came out within ${timeoutMs / 1000}s; missing ` +
        `${named}${missing.length > 3 ? ", …" : ""}`;
    }
    if (this.maxError > tolerance && this.worst) {
      return `largest risk error ${this.maxError.toExponential(2)} (${fixtureLabel(this.worst)}) exceeds the card's tolerance ${tolerance}`;
    }
    return this.staleFinding(tolerance);
  }

  /** A declared misread case scored right after all: the row's note would say what it no longer does. */
  private staleFinding(tolerance: number): string | undefined {
    if (this.passthrough) return undefined;
    const right = this.fixtures.find((f) => (this.misreadErrors.get(f.eventId) ?? Number.POSITIVE_INFINITY) <= tolerance);
    return right && `${fixtureLabel(right)} is declared misread (the row's spelling findings) but was scored right: remove the finding`;
  }

  /** The gate's result: failed with `problem` when given (the run was aborted), else by the verdict. */
  result(tolerance: number, timeoutMs: number, problem = this.verdict(tolerance, timeoutMs)): GateResult {
    const declared = this.fixtures.filter((f) => this.declared.has(f.eventId)).map((f) => f.name);
    const found = { checked: this.checked, fixtures: this.expected.size, maxError: this.maxError, ...(declared.length > 0 ? { declared } : {}) };
    return problem === undefined ? { passed: true, ...found } : { passed: false, ...found, problem };
  }
}
