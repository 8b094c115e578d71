import { makeRecord } from "@bench/core";
import { numberField, stringField } from "./fields.ts";

describe("field projection", () => {
  it("reads the same values JSON.parse does, for many generated records", () => {
    for (let seq = 0; seq < 2000; seq++) {
      const record = makeRecord(7, seq, 1_767_225_600_000 + seq);
      const json = JSON.stringify(record);
      expect(stringField(json, "event_id")).toBe(record.event_id);
      expect(numberField(json, "ts_ms")).toBe(record.ts_ms);
      expect(numberField(json, "latency_ms")).toBe(record.latency_ms);
      expect(numberField(json, "queue_depth")).toBe(record.queue_depth);
      expect(numberField(json, "cpu_usage")).toBe(record.cpu_usage);
      expect(numberField(json, "error_count")).toBe(record.error_count);
    }
  });

  it("names the missing field", () => {
    expect(() => numberField('{"a":1}', "latency_ms")).toThrow('record has no "latency_ms"');
  });
});
