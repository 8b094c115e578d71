import { consumedFromOffsetInfo, consumedFromRows, pickSourceStateTable } from "./offsets.ts";

describe("pickSourceStateTable", () => {
  const names = [
    "__internal_other_sink_3_source_1003",
    "__internal_bench_g1_sink_5_sink_1010",
    "__internal_bench_g1_sink_4_source_1009",
    "__internal_mv_7_hashaggresult_1020",
  ];

  test("finds the source executor's state table of our sink job", () => {
    expect(pickSourceStateTable(names, "bench_g1_sink")).toBe("__internal_bench_g1_sink_4_source_1009");
  });

  test("never picks another job's table, nor a backfill table", () => {
    expect(pickSourceStateTable(names, "bench_g2_sink")).toBeUndefined();
    expect(pickSourceStateTable(["__internal_s_2_sourcebackfill_1001"], "s")).toBeUndefined();
  });
});

describe("consumedFromOffsetInfo", () => {
  const split = (start: number | null) => ({ split_info: { partition: 0, start_offset: start, stop_offset: null, topic: "in" }, split_type: "kafka" });

  test("last offset read + 1 (start_offset is exclusive)", () => {
    expect(consumedFromOffsetInfo(split(255))).toBe(256);
  });

  test("the 'earliest' start (low watermark - 1) and a split not yet read count as 0", () => {
    expect(consumedFromOffsetInfo(split(-1))).toBe(0);
    expect(consumedFromOffsetInfo(split(null))).toBe(0);
  });

  test("accepts jsonb as text and a bare split", () => {
    expect(consumedFromOffsetInfo(JSON.stringify(split(9)))).toBe(10);
    expect(consumedFromOffsetInfo({ start_offset: 4 })).toBe(5);
    expect(consumedFromOffsetInfo("not json")).toBeUndefined();
  });

  test("sums the partitions of the table", () => {
    expect(consumedFromRows([{ offset_info: split(99) }, { offset_info: split(-1) }, { offset_info: split(49) }])).toBe(150);
  });
});
