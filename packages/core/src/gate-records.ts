/**
 * What the verification gate (and every adapter's integration test) produces before anything
 * else, in order: the 256 generated fixtures as gendata writes them, then the spelling cases as
 * their exact raw text. One shape for both, so the gate and the tests read them alike.
 */
import { GENERATED_FIXTURE_COUNT, loadFixtures, type FixtureRow } from "./fixtures.ts";
import { loadSpellings, SPELLING_COUNT, type SpellingRow } from "./spellings.ts";
import type { FeatureVector } from "./features.ts";

/**
 * The records the gate produces (the generated fixtures, then the spelling cases): their event
 * ids are e0 … e<FIXTURE_COUNT - 1>, and gendata's records start at this sequence number.
 */
export const FIXTURE_COUNT = GENERATED_FIXTURE_COUNT + SPELLING_COUNT;

export interface GateRecord {
  /** "generated" for the generator's fixtures; a spelling case's name otherwise. */
  name: string;
  eventId: string;
  tsMs: number;
  /** The message key; null produces none. */
  key: string | null;
  /** The exact text produced (sent as UTF-8). */
  value: string;
  /** The reference model's risk for the record's metrics. */
  risk: number;
}

export function gateRecords(fixtures: readonly FixtureRow[], spellings: readonly SpellingRow[]): GateRecord[] {
  return [
    ...fixtures.map(
      (f) => ({
        name: "generated",
        eventId: f.record.event_id,
        tsMs: f.record.ts_ms,
        key: f.record.partition_key,
        value: JSON.stringify(f.record),
        risk: f.risk,
      }),
    ),
    ...spellings.map((s) => ({ name: s.name, eventId: s.event_id, tsMs: s.ts_ms, key: s.key, value: s.value, risk: s.risk })),
  ];
}

export function loadGateRecords(fixturesDir: string): GateRecord[] {
  return gateRecords(loadFixtures(fixturesDir), loadSpellings(fixturesDir));
}

/**
 * The gate's records with every risk as `score` (the run's model) gives it for the record's
 * features: the committed risks are the default model's, and a run with another model checks its
 * outputs against that model's scores.
 */
export async function gateRecordsScored(fixturesDir: string, score: (rows: FeatureVector[]) => Promise<number[]>): Promise<GateRecord[]> {
  const fixtures = loadFixtures(fixturesDir);
  const spellings = loadSpellings(fixturesDir);
  const risks = await score([...fixtures.map((f) => f.features), ...spellings.map((s) => s.features)]);
  const riskAt = (i: number): number => {
    const risk = risks[i];
    if (risk === undefined || !Number.isFinite(risk)) throw new Error(`the model gave no risk for gate record ${i}`);
    return risk;
  };
  return gateRecords(
    fixtures.map((f, i) => ({ ...f, risk: riskAt(i) })),
    spellings.map((s, j) => ({ ...s, risk: riskAt(fixtures.length + j) })),
  );
}

/** How a failure names a fixture: `fixture e17`, or `fixture "pretty-printed" (event e256)`. */
export function fixtureLabel(record: Pick<GateRecord, "name" | "eventId">): string {
  // A labelled id may hold quotes or a newline: quoted and escaped, so a message stays one line.
  const id = /^e\d+$/.test(record.eventId) ? record.eventId : JSON.stringify(record.eventId);
  return record.name === "generated" ? `fixture ${id}` : `fixture "${record.name}" (event ${id})`;
}
