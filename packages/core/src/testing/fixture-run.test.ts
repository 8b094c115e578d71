import { loadGateRecords } from "../gate-records.ts";
import { fixturesDir } from "../paths.ts";
import { POISON_KINDS, poisonSchedule } from "../poison.ts";
import type { OutputRecord } from "../schema.ts";
import { GENERATED_FIXTURE_COUNT } from "../fixtures.ts";
import { FIXTURE_COUNT } from "../gate-records.ts";
import { alive, compareWithFixtures, gateMessages } from "./fixture-run.ts";

const all = loadGateRecords(fixturesDir());
const fixtures = [...all.slice(0, 2), all.find((f) => f.name === "escaped-quote-in-event-id")!];
const bar = { tolerance: 1e-5 };
const exact = (): Map<string, OutputRecord> => new Map(fixtures.map((f) => [f.eventId, { event_id: f.eventId, ts_ms: f.tsMs, risk: f.risk }]));

describe("compareWithFixtures", () => {
  it("finds nothing wrong with the reference itself", () => {
    expect(compareWithFixtures(fixtures, exact(), bar)).toEqual({ maxRiskError: 0, missing: [], tsMismatches: [], problems: [] });
  });

  it("names missing ids and wrong timestamps by fixture case, and keeps the largest risk error", () => {
    const [a, b, c] = fixtures as [(typeof fixtures)[number], (typeof fixtures)[number], (typeof fixtures)[number]];
    const outputs = exact();
    outputs.delete(a.eventId);
    outputs.set(b.eventId, { ...(outputs.get(b.eventId) as OutputRecord), ts_ms: 7, risk: b.risk + 0.25 });
    outputs.set(c.eventId, { ...(outputs.get(c.eventId) as OutputRecord), risk: c.risk - 0.5 });
    const result = compareWithFixtures(fixtures, outputs, bar);
    expect(result.missing).toEqual([a.eventId]);
    expect(result.tsMismatches).toEqual([{ eventId: b.eventId, expected: b.tsMs, actual: 7 }]);
    expect(result.maxRiskError).toBeCloseTo(0.5, 12);
    expect(result.problems).toEqual([
      "fixture e0: no output",
      `fixture e1: ts_ms 7, expected ${b.tsMs}`,
      `fixture e1: risk ${b.risk + 0.25}, reference ${b.risk}`,
      `fixture "escaped-quote-in-event-id" (event ${JSON.stringify(c.eventId)}): risk ${c.risk - 0.5}, reference ${c.risk}`,
    ]);
    // A passthrough row has no risk to hold to the reference.
    expect(compareWithFixtures(fixtures, outputs, { ...bar, passthrough: true }).problems).toHaveLength(2);
  });

  it("reports a risk that is not a number as an infinite error, which no tolerance passes", () => {
    const outputs = exact();
    const f = fixtures[0]!;
    outputs.set(f.eventId, { event_id: f.eventId, ts_ms: f.tsMs, risk: Number.NaN });
    expect(compareWithFixtures(fixtures, outputs, bar).maxRiskError).toBe(Number.POSITIVE_INFINITY);
    outputs.set(f.eventId, { event_id: f.eventId, ts_ms: f.tsMs } as OutputRecord);
    expect(compareWithFixtures(fixtures, outputs, bar)).toMatchObject({ maxRiskError: Number.POSITIVE_INFINITY, problems: [`fixture e0: risk undefined, reference ${f.risk}`] });
  });
});

describe("gateMessages", () => {
  it("produces the generated fixtures with the pills among them, then every spelling as its raw text with its key or none", () => {
    const pills = poisonSchedule({ seed: 7, rounds: 1, firstSeq: 1, span: GENERATED_FIXTURE_COUNT - 1 });
    const messages = gateMessages(all, pills);
    expect(messages).toHaveLength(FIXTURE_COUNT + POISON_KINDS.length);
    const spelled = messages.slice(GENERATED_FIXTURE_COUNT + POISON_KINDS.length);
    expect(spelled.map((m) => m.value)).toEqual(all.slice(GENERATED_FIXTURE_COUNT).map((f) => f.value));
    expect(spelled.find((m) => m.value === all.find((f) => f.name === "no-message-key")?.value)?.key).toBeNull();
    expect(messages.filter((m) => m.key === "poison")).toHaveLength(POISON_KINDS.length);
    expect(messages[0]).toEqual({ key: all[0]?.key, value: all[0]?.value });
  });
});

describe("alive", () => {
  it("is true for this process and false for a pid that does not exist", () => {
    expect(alive(process.pid)).toBe(true);
    expect(alive(2 ** 22 + 1)).toBe(false);
  });
});
