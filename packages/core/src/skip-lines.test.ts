import { readSkipLines, skipCountsProblem } from "./skip-lines.ts";

describe("readSkipLines", () => {
  it("reads each line of the one format, a logger's prefix before it or not, and names every other wording of a skip", () => {
    const log = [
      "BENCH_READY",
      "skipped record at offset 12: not JSON: Expecting value: line 1 column 1 (char 0) (skipped 1)",
      "2026-12-01 10:00:00 WARN  bench.ScoreProcessor - skipped record at offset 40: missing field latency_ms (skipped 2)\r",
      "skipped record (not JSON): Expecting value (skipped 3)",
      "skipped record at offset 41: malformed",
      "scored 256 records",
    ].join("\n");
    expect(readSkipLines(log)).toEqual({
      skips: [
        { offset: 12, reason: "not JSON: Expecting value: line 1 column 1 (char 0)", count: 1 },
        { offset: 40, reason: "missing field latency_ms", count: 2 },
      ],
      malformed: ["skipped record (not JSON): Expecting value (skipped 3)", "skipped record at offset 41: malformed"],
    });
  });
});

describe("skipCountsProblem", () => {
  it("accepts one counter's 1, 2, 3 … and several counters' sequences interleaved", () => {
    expect(skipCountsProblem([1, 2, 3, 4])).toBeUndefined();
    expect(skipCountsProblem([1, 1, 2, 3, 2])).toBeUndefined();
    expect(skipCountsProblem([])).toBeUndefined();
  });

  it("names a total printed more often than the one before it: a counter that skipped a number or did not count", () => {
    expect(skipCountsProblem([1, 3])).toBe('"(skipped 3)" is printed 1 times, "(skipped 2)" 0: the totals 1, 3 are not counters counting from 1');
    expect(skipCountsProblem([1, 2, 2])).toBe('"(skipped 2)" is printed 2 times, "(skipped 1)" 1: the totals 1, 2, 2 are not counters counting from 1');
    expect(skipCountsProblem([0, 1])).toBe('"(skipped 0)" is printed: a counter counts from 1');
  });
});
