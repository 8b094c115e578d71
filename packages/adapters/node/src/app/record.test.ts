import { fixturesDir, loadSpellings, makeRecord, normalise, POISON_KINDS, poisonValue, REFUSAL_CASES } from "@bench/core";
import { decodeRecord, encodeOutput } from "./record.ts";

const features = (metrics: readonly number[]): number[] => normalise(
  { latency_ms: metrics[0] as number, queue_depth: metrics[1] as number, cpu_usage: metrics[2] as number, error_count: metrics[3] as number },
);

describe("the node row's decode", () => {
  it("reads what JSON.parse reads, for many generated records", () => {
    for (let seq = 0; seq < 2000; seq++) {
      const record = makeRecord(7, seq, 1_767_225_600_000 + seq);
      expect(decodeRecord(Buffer.from(JSON.stringify(record)))).toEqual({
        eventId: record.event_id,
        tsMs: record.ts_ms,
        metrics: [record.latency_ms, record.queue_depth, record.cpu_usage, record.error_count],
      });
    }
  });

  it("reads every spelling fixture's id, time and features exactly, whatever its JSON spelling", () => {
    const spellings = loadSpellings(fixturesDir());
    expect(spellings.length).toBeGreaterThanOrEqual(10);
    for (const s of spellings) {
      const decoded = decodeRecord(Buffer.from(s.value, "utf8"));
      // y_number_negative_zero's -0 metrics give -0 features: the same number to the model (x + 0 turns -0 into 0 for toEqual).
      const read = features(decoded.metrics).map((x) => x + 0);
      expect({ name: s.name, eventId: decoded.eventId, tsMs: decoded.tsMs, features: read }).toEqual({
        name: s.name,
        eventId: s.event_id,
        tsMs: s.ts_ms,
        features: s.features,
      });
    }
  });

  it("refuses, with a reason, every poison pill kind and what a text search got wrong", () => {
    for (const kind of POISON_KINDS) expect(() => decodeRecord(poisonValue(kind, 1))).toThrow();
    // The gate's must-refuse cases: a top-level non-object, a number JSON does not allow.
    for (const c of REFUSAL_CASES) expect({ name: c.name, refused: refuses(() => decodeRecord(c.value)) }).toEqual({ name: c.name, refused: true });
    expect(() => decodeRecord(null)).toThrow();
    // The metrics only in a nested object: the record has none of its own.
    expect(
      () => decodeRecord(Buffer.from('{"event_id":"e1","ts_ms":1,"meta":{"latency_ms":1,"queue_depth":1,"cpu_usage":1,"error_count":1}}')),
    ).toThrow("latency_ms is not a finite number");
    expect(
      () => decodeRecord(Buffer.from('{"event_id":"e1","ts_ms":1,"latency_ms":"1","queue_depth":1,"cpu_usage":1,"error_count":1}')),
    ).toThrow("latency_ms is not a finite number");
    expect(
      () => decodeRecord(Buffer.from('{"event_id":7,"ts_ms":1,"latency_ms":1,"queue_depth":1,"cpu_usage":1,"error_count":1}')),
    ).toThrow("event_id is not a string");
    // Not UTF-8 inside an otherwise valid record: malformed, never read with replacement characters.
    const latin1 = Buffer.concat(
      [Buffer.from('{"event_id":"e1/'), Buffer.from([0xfc]), Buffer.from('","ts_ms":1,"latency_ms":1,"queue_depth":1,"cpu_usage":1,"error_count":1}')],
    );
    expect(() => decodeRecord(latin1)).toThrow();
  });
});

describe("the node row's encode", () => {
  it("writes JSON that parses back to the same id, time and risk, quotes and non-ASCII included", () => {
    for (const eventId of ["e1", 'e264/say "hi" \\ tab\tnew\nline', "e263/ü-日本-🚀"]) {
      const bytes = encodeOutput(eventId, 1_767_225_600_264, 0.2774445414543152);
      expect(JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes))).toEqual(
        { event_id: eventId, ts_ms: 1_767_225_600_264, risk: 0.2774445414543152 },
      );
    }
  });
});

function refuses(decode: () => unknown): boolean {
  try {
    decode();
    return false;
  } catch {
    return true;
  }
}
