import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseConsumed, readConsumed } from "./consumed.ts";

describe("the app's consumed file", () => {
  it("reads the offset the app wrote", () => {
    expect(parseConsumed("275\n")).toBe(275);
  });

  it("reads nothing usable as 0, never as NaN or a negative count", () => {
    for (const text of ["", "\n", "abc", "-3", "1.5", "1e400"]) expect(parseConsumed(text)).toBe(0);
  });

  it("reads a missing file (the app has not written yet) as 0", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pathway-consumed-"));
    expect(await readConsumed(join(dir, "absent"))).toBe(0);
    writeFileSync(join(dir, "present"), "12\n");
    expect(await readConsumed(join(dir, "present"))).toBe(12);
  });
});
