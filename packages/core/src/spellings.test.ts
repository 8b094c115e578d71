import { normalise } from "./features.ts";
import { FIXTURE_SEED, GENERATED_FIXTURE_COUNT } from "./fixtures.ts";
import { FIXTURE_COUNT, fixtureLabel, loadGateRecords } from "./gate-records.ts";
import { makeRecord, makeTemplate } from "./generator.ts";
import { fixturesDir } from "./paths.ts";
import { METRIC_FIELDS, seqOfEventId, type InputRecord } from "./schema.ts";
import { loadSpellings, NEAR_LIMIT_VALUE_BYTES, SMALLEST_MESSAGE_LIMIT, SPELLING_CASES, spellingRows } from "./spellings.ts";

const committed = loadSpellings(fixturesDir());
const byName = (name: string) => committed.find((s) => s.name === name) as (typeof committed)[number];

describe("the spelling fixtures", () => {
  it("are what the generator makes today (make-fixtures.ts rewrites the file), the model's risk aside", () => {
    expect(committed.map(({ risk: _risk, ...row }) => row)).toEqual(spellingRows());
    expect(committed.every((s) => typeof s.risk === "number" && s.risk > 0 && s.risk < 1)).toBe(true);
  });

  it("take the sequence numbers right after the generated fixtures, one case each, so gendata starts after them", () => {
    expect(committed.map((s) => seqOfEventId(s.event_id))).toEqual(SPELLING_CASES.map((_, i) => GENERATED_FIXTURE_COUNT + i));
    expect(new Set(committed.map((s) => s.name)).size).toBe(committed.length);
    expect(FIXTURE_COUNT).toBe(GENERATED_FIXTURE_COUNT + committed.length);
    expect(loadGateRecords(fixturesDir()).map((r) => seqOfEventId(r.eventId))).toEqual(Array.from({ length: FIXTURE_COUNT }, (_, i) => i));
  });

  it("each parse, with a real JSON parser, to the generator's record for that sequence: same id, time and metrics", () => {
    for (const s of committed) {
      const parsed = JSON.parse(s.value) as InputRecord;
      const template = makeTemplate(FIXTURE_SEED, seqOfEventId(s.event_id) as number);
      expect({ name: s.name, id: parsed.event_id, ts: parsed.ts_ms }).toEqual({ name: s.name, id: s.event_id, ts: s.ts_ms });
      for (const field of METRIC_FIELDS) expect([s.name, field, parsed[field]]).toEqual([s.name, field, template[field]]);
      expect(normalise(parsed)).toEqual(s.features);
    }
  });

  it("are each spelled differently from gendata's compact form, but for the one whose difference is the missing key", () => {
    for (const s of committed) {
      const plain = JSON.stringify(makeRecord(FIXTURE_SEED, seqOfEventId(s.event_id) as number, s.ts_ms));
      if (s.name === "no-message-key") {
        expect(s.value).toBe(plain);
        expect(s.key).toBeNull();
      } else {
        expect([s.name, s.value === plain]).toEqual([s.name, false]);
        expect(typeof s.key).toBe("string");
      }
    }
  });

  it("hold what their names say", () => {
    expect(byName("pretty-printed").value).toMatch(/\n {2}"latency_ms": \d/);
    expect(byName("nested-decoys-first").value.indexOf('"latency_ms"')).toBeLessThan(byName("nested-decoys-first").value.indexOf('"service"'));
    expect(byName("non-ascii-event-id").value).toContain("🚀");
    expect(byName("escaped-quote-in-event-id").value).toContain('\\"hi\\" \\\\ tab\\tnew\\nline');
    expect(byName("unicode-escapes").value).toMatch(/\\ud83d\\uDE80/);
    expect(byName("unicode-escapes").value).toContain("\\/api");
    expect(byName("exponent-numbers").value).toMatch(/"latency_ms":[\d.]+e[+-]\d+/);
    expect(byName("whitespace-crlf-tabs").value).toMatch(/^\r\n[\s\S]*\t:\r\n[\s\S]*\r\n$/);
    expect(byName("integer-float-forms").value).toMatch(/"error_count":\d+\.0[,}]/);
  });

  it("include a record a bit under the smallest message size limit on the input path", () => {
    const bytes = Buffer.byteLength(byName("near-size-limit").value);
    expect(bytes).toBe(NEAR_LIMIT_VALUE_BYTES);
    expect(bytes).toBeLessThan(SMALLEST_MESSAGE_LIMIT);
    expect(bytes).toBeGreaterThan(SMALLEST_MESSAGE_LIMIT * 0.99);
  });

  it("are named in failure messages by case and event id", () => {
    expect(fixtureLabel({ name: "generated", eventId: "e17" })).toBe("fixture e17");
    expect(fixtureLabel({ name: "pretty-printed", eventId: "e256" })).toBe('fixture "pretty-printed" (event e256)');
    expect(fixtureLabel({ name: "escaped", eventId: 'e264/a"\nb' })).toBe('fixture "escaped" (event "e264/a\\"\\nb")');
  });
});
