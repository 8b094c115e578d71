import { GateCheck } from "./gate-check.ts";
import { loadGateRecords, type GateRecord } from "./gate-records.ts";
import { fixturesDir } from "./paths.ts";

const fixtures = loadGateRecords(fixturesDir());
const byName = (name: string) => fixtures.find((f) => f.name === name)!;
const out = (
  f: Pick<GateRecord, "eventId" | "tsMs">,
  risk: unknown,
  eventId = f.eventId,
): Buffer => Buffer.from(JSON.stringify({ event_id: eventId, ts_ms: f.tsMs, risk }));
/** Every fixture scored exactly, in order: offset = index. */
const exact = (check: GateCheck, except: (eventId: string) => boolean = () => false): void =>
  fixtures.forEach((f, offset) => (except(f.eventId) ? undefined : check.add(offset, out(f, f.risk))));

describe("the verification gate's check of each output", () => {
  it("passes every fixture scored exactly, the spelling cases' ids as parsed", () => {
    const check = new GateCheck(fixtures, false);
    exact(check);
    expect(check.verdict(1e-5, 180_000)).toBeUndefined();
    expect(check.result(1e-5, 180_000)).toEqual({ passed: true, checked: fixtures.length, fixtures: fixtures.length, maxError: 0 });
    expect(check.outputs.get("e0")).toEqual({ event_id: "e0", ts_ms: fixtures[0]?.tsMs, risk: fixtures[0]?.risk });
  });

  it("names the fixture case of the largest risk error", () => {
    const check = new GateCheck(fixtures, false);
    const spelled = byName("exponent-numbers");
    exact(check, (id) => id === spelled.eventId);
    check.add(999, out(spelled, spelled.risk + 0.25));
    expect(check.verdict(1e-5, 180_000)).toBe('largest risk error 2.50e-1 (fixture "exponent-numbers" (event e261)) exceeds the card\'s tolerance 0.00001');
  });

  it("names the fixture an unparseable output was probably for, with its offset and bytes", () => {
    const check = new GateCheck(fixtures, false);
    const escaped = byName("escaped-quote-in-event-id");
    // What a text-scanning encoder wrote for this case: the quote unescaped (under 120 bytes, shown whole, on one line).
    const raw = `{"event_id":"${escaped.eventId}","ts_ms":1767225600264,"risk":${escaped.risk}}`;
    check.add(22, Buffer.from(raw));
    expect(check.verdict(1e-5, 180_000)).toBe(
      `output at offset 22 is not JSON (probably fixture "escaped-quote-in-event-id" (event ${JSON.stringify(escaped.eventId)})): ${JSON.stringify(raw)}`,
    );
  });

  it("names the fixture whose id came back changed (a non-ASCII id read as latin1)", () => {
    const check = new GateCheck(fixtures, false);
    const nonAscii = byName("non-ascii-event-id");
    const mangled = Buffer.from(nonAscii.eventId, "utf8").toString("latin1");
    check.add(7, out(nonAscii, nonAscii.risk, mangled));
    expect(check.verdict(1e-5, 180_000)).toBe(
      `output at offset 7 carries unknown event_id ${JSON.stringify(mangled)} (fixture "non-ascii-event-id" (event ${JSON.stringify(nonAscii.eventId)}) ` +
        `expected)`,
    );
  });

  it("names the first fixtures that never came out, and asks a passthrough row for ids only", () => {
    const check = new GateCheck(fixtures, true);
    const skipped = new Set([byName("pretty-printed").eventId, byName("whitespace-crlf-tabs").eventId]);
    fixtures.forEach((f, offset) => (skipped.has(f.eventId) ? undefined : check.add(offset, Buffer.from(f.value))));
    expect(check.verdict(1e-5, 180_000)).toBe(
      `only ${fixtures.length - 2} of ${fixtures.length} fixture records came out within 180s; missing fixture "pretty-printed" (event e256), fixture ` +
        `"whitespace-crlf-tabs" (event e262)`,
    );
  });

  it("holds a risk that is not a number against its fixture", () => {
    const check = new GateCheck(fixtures, false);
    check.add(0, out(fixtures[0]!, null));
    expect(check.verdict(1e-5, 180_000)).toBe("fixture e0: risk null is not a number");
  });

  it("names the fixture whose ts_ms came back changed, passthrough or not", () => {
    for (const passthrough of [false, true]) {
      const check = new GateCheck(fixtures, passthrough);
      const f = fixtures[1]!;
      check.add(3, Buffer.from(JSON.stringify({ event_id: f.eventId, ts_ms: String(f.tsMs), risk: f.risk })));
      expect(check.verdict(1e-5, 180_000)).toBe(`fixture e1: ts_ms "${f.tsMs}", expected ${f.tsMs}`);
    }
  });

  it("keeps the first problem, and fails the result with an abort's reason when given one", () => {
    const check = new GateCheck(fixtures, false);
    check.add(0, Buffer.from("not json"));
    check.add(1, out(fixtures[1]!, null));
    check.add(2, out(fixtures[2]!, fixtures[2]!.risk));
    expect(check.result(1e-5, 180_000)).toEqual(
      { passed: false, checked: 2, fixtures: fixtures.length, maxError: 0, problem: `output at offset 0 is not JSON: "not json"` },
    );
    expect(check.result(1e-5, 180_000, "exited during the run (code 1, signal null)").problem).toBe("exited during the run (code 1, signal null)");
  });

  describe("a row's declared spelling finding (Product.spellingFindings)", () => {
    const findings = { y_object_duplicated_key: { outcome: "misread" as const, why: "reads the first of a repeated key" } };
    const dup = byName("y_object_duplicated_key");

    it("passes the case scored from other values, keeps it out of the largest error, and names it in the result", () => {
      const check = new GateCheck(fixtures, false, findings);
      exact(check, (id) => id === dup.eventId);
      check.add(999, out(dup, dup.risk + 0.87));
      expect(check.result(1e-5, 180_000)).toEqual(
        { passed: true, checked: fixtures.length, fixtures: fixtures.length, maxError: 0, declared: ["y_object_duplicated_key"] },
      );
    });

    it("still wants the case's output with its id and ts_ms: a misread record is not a lost one", () => {
      const check = new GateCheck(fixtures, false, findings);
      exact(check, (id) => id === dup.eventId);
      expect(check.verdict(1e-5, 180_000)).toMatch(
        /^only \d+ of \d+ fixture records came out within 180s; missing fixture "y_object_duplicated_key" \(event e280\)$/,
      );
    });

    it("fails when the row scores the case right after all: the note would be stale", () => {
      const check = new GateCheck(fixtures, false, findings);
      exact(check);
      expect(check.verdict(1e-5, 180_000)).toBe(
        'fixture "y_object_duplicated_key" (event e280) is declared misread (the row\'s spelling findings) but was scored right: remove the finding',
      );
    });

    it("refuses a finding that names no spelling case", () => {
      expect(
        () => new GateCheck(fixtures, false, { y_object_typo: findings.y_object_duplicated_key }),
      ).toThrow('a spelling finding names no spelling case: "y_object_typo"');
    });
  });
});
