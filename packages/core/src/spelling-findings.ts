/**
 * What a row's framework does, by design, with a spelling case it does not read as the record
 * means it: declared with the row (Product.spellingFindings), held by the gate to exactly that,
 * and printed with the row's notes on the page. A finding is never a way to pass quietly: the
 * gate still requires the case's output, fails when the row reads the case right after all (the
 * note would be stale), and the note names the case, what happens and the framework's setting.
 */
import { REFUSAL_CASES, type PoisonFindings } from "./poison.ts";
import type { GateRecord } from "./gate-records.ts";
import { seqOfEventId } from "./schema.ts";
import { SPELLING_CASES } from "./spellings.ts";

export interface SpellingFinding {
  /**
   * misread: the output comes out with the record's id and ts_ms, but scored from other values
   * than the record's (e.g. the first of a repeated key). The only outcome a row declares so far;
   * a row that skips a case still fails the gate (the record would also count as lost in the
   * audit), until an outcome for that is added here and there.
   */
  outcome: "misread";
  /** Why, naming the framework's parser and its own setting that reads the case right, if one exists. */
  why: string;
}

/** Spelling case name -> the row's finding for it. */
export type SpellingFindings = Readonly<Record<string, SpellingFinding>>;

/** The declared cases among the fixtures, by event id; a name no fixture has is a typo and throws. */
export function declaredFixtures(findings: SpellingFindings, fixtures: readonly GateRecord[]): Map<string, SpellingFinding> {
  const byName = new Map(fixtures.map((f) => [f.name, f]));
  return new Map(
    Object.entries(findings).map(([name, finding]) => {
      const fixture = byName.get(name);
      if (!fixture || name === "generated") throw new Error(`a spelling finding names no spelling case: ${JSON.stringify(name)}`);
      return [fixture.eventId, finding] as const;
    }),
  );
}

/** The declared misread cases' sequence numbers: the audit does not re-score their outputs against the record. */
export function misreadSeqs(findings: SpellingFindings | undefined, fixtures: readonly GateRecord[]): Set<number> {
  return new Set([...declaredFixtures(findings ?? {}, fixtures).keys()].map((id) => seqOfEventId(id) as number));
}

/** The row's notes on the page, one per finding, in the cases' order; a name no case has throws. */
export function findingNotes(findings: SpellingFindings | undefined): string[] {
  const names = new Set(SPELLING_CASES.map((c) => c.name));
  for (const name of Object.keys(findings ?? {})) if (!names.has(name)) throw new Error(`a spelling finding names no spelling case: ${JSON.stringify(name)}`);
  const source = (name: string): string => (name.startsWith("y_") ? ` (JSONTestSuite's must-accept ${name}.json)` : "");
  return SPELLING_CASES.flatMap(({ name }) => {
    const finding = findings?.[name];
    return finding ? [`JSON FINDING — the gate's spelling case "${name}"${source(name)} is ${finding.outcome}: ${finding.why}`] : [];
  });
}

/** What the page prints under the row: its own notes, then its spelling findings, then its readings of must-refuse cases. */
export function productNotes(product: { notes?: string[]; spellingFindings?: SpellingFindings; poisonFindings?: PoisonFindings }): string[] {
  return [...(product.notes ?? []), ...findingNotes(product.spellingFindings), ...poisonFindingNotes(product.poisonFindings)];
}

/** One note per declared reading of a must-refuse case, in the cases' order; a name no case has throws. */
export function poisonFindingNotes(findings: PoisonFindings | undefined): string[] {
  const names = new Set(REFUSAL_CASES.map((c) => c.name));
  for (const name of Object.keys(findings ?? {})) if (!names.has(name)) throw new Error(`a poison finding names no must-refuse case: ${JSON.stringify(name)}`);
  return REFUSAL_CASES.flatMap(({ name, about }) => {
    const finding = findings?.[name];
    return finding ? [`JSON FINDING — the gate's must-refuse case "${name}" (${about}) is ${finding.outcome}: ${finding.why}`] : [];
  });
}
