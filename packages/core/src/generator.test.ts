import { makeRecord, makeTemplate, POOL_SIZE, RecordEncoder } from "./generator.ts";
import { INPUT_FIELD_COUNT, METRIC_MAXIMA, seqOfEventId } from "./schema.ts";

describe("generator", () => {
  it("is deterministic: the same seed and sequence give the same record", () => {
    expect(makeRecord(42, 12345, 1000)).toEqual(makeRecord(42, 12345, 1000));
    expect(makeTemplate(42, 7)).not.toEqual(makeTemplate(43, 7));
    expect(makeTemplate(42, 7)).not.toEqual(makeTemplate(42, 8));
  });

  it("makes 19-field records whose event id leads back to the sequence", () => {
    const record = makeRecord(42, 987_654, 1);
    expect(Object.keys(record)).toHaveLength(INPUT_FIELD_COUNT);
    expect(seqOfEventId(record.event_id)).toBe(987_654);
    expect(seqOfEventId("x12")).toBeUndefined();
    expect(seqOfEventId("e12x")).toBeUndefined();
    expect(seqOfEventId("e")).toBeUndefined();
    // A spelling fixture's label after a slash (non-ASCII, quotes, a newline) leaves the sequence readable.
    expect(seqOfEventId("e263/ü-日本-🚀")).toBe(263);
    expect(seqOfEventId('e264/say "hi"\nx')).toBe(264);
    expect(seqOfEventId("/e12")).toBeUndefined();
  });

  it("encodes the same JSON as JSON.stringify of the record", () => {
    const encoder = new RecordEncoder(42);
    for (const seq of [0, 1, POOL_SIZE - 1, POOL_SIZE, 3 * POOL_SIZE + 17]) {
      const { key, value } = encoder.encode(seq, 1_700_000_000_000);
      const record = makeRecord(42, seq, 1_700_000_000_000);
      expect(JSON.parse(value)).toEqual(record);
      expect(key).toBe(record.partition_key);
    }
  });

  it("draws metrics that mostly fall inside the maxima, with some beyond to exercise clipping", () => {
    const n = 20_000;
    let over = 0;
    for (let i = 0; i < n; i++) {
      const r = makeTemplate(1, i);
      expect(r.latency_ms).toBeGreaterThan(0);
      expect(r.queue_depth).toBeGreaterThanOrEqual(0);
      expect(r.cpu_usage).toBeGreaterThanOrEqual(0);
      expect(r.cpu_usage).toBeLessThanOrEqual(100);
      if (r.queue_depth > METRIC_MAXIMA.queue_depth || r.error_count > METRIC_MAXIMA.error_count) over++;
    }
    expect(over / n).toBeGreaterThan(0.005);
    expect(over / n).toBeLessThan(0.1);
  });
});
