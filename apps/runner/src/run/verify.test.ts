import { fixturesDir, loadGateRecords } from "@bench/core";
import { GateCheck } from "./verify.ts";

const fixtures = loadGateRecords(fixturesDir());
const byName = (name: string) => fixtures.find((f) => f.name === name)!;
const out = (eventId: string, risk: unknown): Buffer => Buffer.from(JSON.stringify({ event_id: eventId, ts_ms: 1, risk }));
/** Every fixture scored exactly, in order: offset = index. */
const exact = (check: GateCheck, except: (eventId: string) => boolean = () => false): void =>
  fixtures.forEach((f, offset) => (except(f.eventId) ? undefined : check.add(offset, out(f.eventId, f.risk))));

describe("the verification gate's check of each output", () => {
  it("passes every fixture scored exactly, the spelling cases' ids as parsed", () => {
    const check = new GateCheck(fixtures, false);
    exact(check);
    expect(check.verdict(1e-5, 180_000)).toBeUndefined();
    expect(check.seen.size).toBe(fixtures.length);
  });

  it("names the fixture case of the largest risk error", () => {
    const check = new GateCheck(fixtures, false);
    const spelled = byName("exponent-numbers");
    exact(check, (id) => id === spelled.eventId);
    check.add(999, out(spelled.eventId, spelled.risk + 0.25));
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
    check.add(7, out(mangled, nonAscii.risk));
    expect(check.verdict(1e-5, 180_000)).toBe(`output at offset 7 carries unknown event_id ${JSON.stringify(mangled)} (fixture "non-ascii-event-id" (event ${JSON.stringify(nonAscii.eventId)}) expected)`);
  });

  it("names the first fixtures that never came out, and asks a passthrough row for ids only", () => {
    const check = new GateCheck(fixtures, true);
    const skipped = new Set([byName("pretty-printed").eventId, byName("whitespace-crlf-tabs").eventId]);
    fixtures.forEach((f, offset) => (skipped.has(f.eventId) ? undefined : check.add(offset, Buffer.from(f.value))));
    expect(check.verdict(1e-5, 180_000)).toBe(
      `only ${fixtures.length - 2} of ${fixtures.length} fixture records came out within 180s; missing fixture "pretty-printed" (event e256), fixture "whitespace-crlf-tabs" (event e262)`,
    );
  });

  it("holds a risk that is not a number against its fixture", () => {
    const check = new GateCheck(fixtures, false);
    check.add(0, out("e0", null));
    expect(check.verdict(1e-5, 180_000)).toBe("fixture e0: risk null is not a number");
  });
});
