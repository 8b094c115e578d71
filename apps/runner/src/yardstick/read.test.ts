import type { RuntimeReadings } from "../results/types.ts";
import { SpacedRuntimes } from "./read.ts";

describe("runtime readings spaced by time", () => {
  it("reuses a reading while it is at most the spacing old, and reads again after", async () => {
    let clock = 0;
    let reads = 0;
    const read = async (): Promise<RuntimeReadings> => ({ missing: { cpython: `read ${++reads}` } });
    const spaced = new SpacedRuntimes({ cacheDir: "/unused", modelsDir: "/unused", log: () => undefined }, 1000, read, () => clock);
    expect((await spaced.reading()).missing?.cpython).toBe("read 1");
    clock = 1000;
    expect((await spaced.reading()).missing?.cpython).toBe("read 1");
    clock = 1001;
    expect((await spaced.reading()).missing?.cpython).toBe("read 2");
    expect(reads).toBe(2);
  });
});
