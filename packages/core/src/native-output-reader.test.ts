import type { ConsumedMessage } from "./kafka.ts";
import { decodeFrames, type FrameHandlers } from "./native-output-reader.ts";

function good(offset: number, seq: number, tsMs: number, risk: number, timestamp: number): Buffer {
  const b = Buffer.alloc(41);
  b[0] = 1;
  [offset, seq, tsMs, risk, timestamp].forEach((x, i) => b.writeDoubleLE(x, 1 + i * 8));
  return b;
}

function raw(offset: number, timestamp: number, value: string): Buffer {
  const v = Buffer.from(value);
  const b = Buffer.alloc(21 + v.length);
  b[0] = 2;
  b.writeDoubleLE(offset, 1);
  b.writeDoubleLE(timestamp, 9);
  b.writeUInt32LE(v.length, 17);
  v.copy(b, 21);
  return b;
}

function collector(): { on: FrameHandlers; seen: unknown[] } {
  const seen: unknown[] = [];
  return {
    seen,
    on: { decoded: (...a) => seen.push(a), raw: (m: ConsumedMessage) => seen.push({ offset: m.offset, timestamp: m.timestamp, value: m.value.toString() }) },
  };
}

describe("the native reader's frames", () => {
  const stream = Buffer.concat([good(0, 7, 1000, 0.25, 1003), raw(1, 1004, "not json"), raw(2, 1005, ""), good(3, 8, Number.NaN, Number.NaN, 1006)]);
  const expected = [
    [0, 7, 1000, 0.25, 1003],
    { offset: 1, timestamp: 1004, value: "not json" },
    { offset: 2, timestamp: 1005, value: "" },
    [3, 8, Number.NaN, Number.NaN, 1006],
  ];

  it("hands on every frame of a whole stream", () => {
    const { on, seen } = collector();
    expect(decodeFrames(stream, on)).toBe(stream.length);
    expect(seen).toEqual(expected);
  });

  it("hands on the same frames however the stream is cut, keeping a cut frame for the next chunk", () => {
    for (let cut = 1; cut < stream.length; cut++) {
      const { on, seen } = collector();
      const used = decodeFrames(stream.subarray(0, cut), on);
      const rest = Buffer.concat([stream.subarray(used, cut), stream.subarray(cut)]);
      expect(decodeFrames(rest, on)).toBe(rest.length);
      expect(seen).toEqual(expected);
    }
  });

  it("copies a raw record's bytes: the chunk they came in is reused", () => {
    const chunk = raw(5, 1, "abc");
    const { on, seen } = collector();
    let value: Buffer | undefined;
    decodeFrames(chunk, { ...on, raw: (m) => (value = m.value) });
    chunk.fill(0);
    expect(value?.toString()).toBe("abc");
    expect(seen).toEqual([]);
  });

  it("stops at a frame it does not know rather than reading on out of step", () => {
    const { on } = collector();
    expect(() => decodeFrames(Buffer.concat([good(0, 1, 1, 1, 1), Buffer.from([9, 0, 0])]), on)).toThrow(/tagged 9 at byte 41/);
  });
});
