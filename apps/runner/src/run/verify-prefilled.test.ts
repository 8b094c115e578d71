import { isGeneratedOutput } from "./verify-prefilled.ts";

const out = (eventId: string): Buffer => Buffer.from(JSON.stringify({ event_id: eventId, ts_ms: 1, risk: 0.5 }));

describe("the gate on a pre-filled topic", () => {
  it("leaves a generated record's output to the audit and holds every other output to the fixtures", () => {
    expect(isGeneratedOutput(out("e300"), 300)).toBe(true);
    expect(isGeneratedOutput(out("e299"), 300)).toBe(false);
    // A labelled spelling case's id is a fixture's, not a generated record's.
    expect(isGeneratedOutput(out("e3/ü-日本-🚀"), 300)).toBe(false);
    // What cannot be read is the gate's to judge (it names the fixture it was probably for).
    expect(isGeneratedOutput(Buffer.from("not json"), 300)).toBe(false);
    expect(isGeneratedOutput(Buffer.from(JSON.stringify({ event_id: "x1", risk: 0.5 })), 300)).toBe(false);
  });
});
