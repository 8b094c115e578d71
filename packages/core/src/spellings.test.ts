import { normalise } from "./features.ts";
import { FIXTURE_SEED, GENERATED_FIXTURE_COUNT } from "./fixtures.ts";
import { FIXTURE_COUNT, fixtureLabel, loadGateRecords } from "./gate-records.ts";
import { makeRecord, makeTemplate } from "./generator.ts";
import { fixturesDir } from "./paths.ts";
import { METRIC_FIELDS, seqOfEventId, type InputRecord, type MetricField } from "./schema.ts";
import { loadSpellings, NEAR_LIMIT_VALUE_BYTES, scaled, SMALLEST_MESSAGE_LIMIT, SPELLING_CASES, spellingRows, SUITE_CASES } from "./spellings.ts";

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
      // y_number_negative_zero writes a zero metric as -0: the number 0 to every comparison and to
      // the clip to [0, 1] (Jest's toEqual alone tells -0 from 0).
      const metric = (field: MetricField): number => (parsed[field] === 0 ? 0 : parsed[field]);
      for (const field of METRIC_FIELDS) expect([s.name, field, metric(field)]).toEqual([s.name, field, template[field]]);
      expect(normalise(parsed).map((f) => f + 0)).toEqual(s.features); // -0 + 0 is 0
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

  it("carry JSONTestSuite's must-accept constructs, each case named after its y_ file and holding the suite's text", () => {
    expect(SUITE_CASES.length).toBeGreaterThanOrEqual(40);
    for (const c of SUITE_CASES) {
      expect(c.name).toMatch(/^y_(number|object|string)(_|$)/);
      expect([c.name, byName(c.name).value.includes(c.construct)]).toEqual([c.name, true]);
    }
    // The suite's raw characters stay raw (not re-escaped by a stringify): U+2028, DEL, 4-byte UTF-8.
    expect(byName("y_string_u+2028_line_sep").value).toContain('"e301/\u2028"');
    expect(byName("y_string_unescaped_char_delete").value).toContain('"e304/\u007f"');
    expect(byName("y_string_null_escape").value).toContain('"e297/\\u0000"');
    expect(byName("y_object_escaped_null_in_key").value).toMatch(/^\{"foo\\u0000bar": 42,/);
  });

  it("write a repeated metric first with a decoy: only the last value gives the fixture's numbers (last wins, as JSON.parse)", () => {
    const value = byName("y_object_duplicated_key").value;
    expect(value).toMatch(/^\{"latency_ms":4999\.99,"queue_depth":999,"cpu_usage":99\.9,"error_count":49,"event_id"/);
    expect(value.match(/"latency_ms":/g)).toHaveLength(2);
    const parsed = JSON.parse(value) as InputRecord;
    expect(parsed.latency_ms).not.toBe(4999.99);
    expect(byName("y_object_duplicated_key_and_value").value.match(/"error_count":/g)).toHaveLength(2);
  });

  it("write a zero metric as -0, 0e1 and 0e+1 where the record has one, and the other numbers in every exponent form", () => {
    expect(byName("y_number_negative_zero").value).toMatch(/"queue_depth":-0,.*"error_count":-0,/);
    expect(byName("y_number_0e1").value).toContain('"queue_depth":0e1,');
    expect(byName("y_number_0e+1").value).toContain('"error_count":0e+1,');
    expect(byName("y_number_real_capital_e_neg_exp").value).toMatch(/"latency_ms":\d+E-2,/);
    expect(byName("y_number_real_fraction_exponent").value).toMatch(/"latency_ms":0\.\d+e2,/);
  });

  it("move a decimal point by text alone: the same decimal value, so the same double", () => {
    expect(
      [scaled(39.37, 1), scaled(39.37, -2), scaled(1, 2), scaled(1, -3), scaled(0, 1), scaled(565.31, 5), scaled(50, 1)],
    ).toEqual(["3.937", "3937", "0.01", "1000", "0", "0.0056531", "5"]);
    for (const [x, e] of [[39.37, 1], [0.1, -4], [1077.29, 3], [7, -2]] as const) expect(Number(`${scaled(x, e)}e${e}`)).toBe(x);
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
