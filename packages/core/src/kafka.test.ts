import { beforeOffset } from "./kafka.ts";

const at = (...offsets: number[]): Array<{ offset: number }> => offsets.map((offset) => ({ offset }));

describe("a reader's batch cut at an offset", () => {
  it("keeps a batch that ends before the offset whole (the same array, nothing copied)", () => {
    const batch = at(3, 4, 5);
    expect(beforeOffset(batch, 6)).toBe(batch);
    expect(beforeOffset(batch, Number.POSITIVE_INFINITY)).toBe(batch);
  });

  it("drops the records at and past the offset, gaps (transaction markers) included", () => {
    expect(beforeOffset(at(3, 4, 7, 8), 5)).toEqual(at(3, 4));
    expect(beforeOffset(at(3, 4, 5), 5)).toEqual(at(3, 4));
    expect(beforeOffset(at(5, 6), 5)).toEqual([]);
  });

  it("keeps an empty batch empty", () => {
    expect(beforeOffset([], 0)).toEqual([]);
  });
});
