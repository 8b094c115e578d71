import { alive } from "./fixture-run.ts";

describe("alive", () => {
  it("is true for this process and false for a pid that does not exist", () => {
    expect(alive(process.pid)).toBe(true);
    expect(alive(2 ** 22 + 1)).toBe(false);
  });
});
