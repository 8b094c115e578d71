import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { counterFile, parseCounter } from "./counter-file.ts";

describe("parseCounter", () => {
  it("reads one whole non-negative number, with surrounding whitespace", () => {
    expect(parseCounter("268\n")).toBe(268);
    expect(parseCounter(" 0 ")).toBe(0);
  });

  it("is undefined for anything else", () => {
    for (const text of ["", "-1", "1.5", "12a", "1e3", "99999999999999999999"]) expect(parseCounter(text)).toBeUndefined();
  });
});

describe("counterFile", () => {
  it("reads 0 before the file exists, then its number, and keeps the last number through a missing or torn file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "counter-"));
    const file = join(dir, "consumed");
    const counter = counterFile(file, "test");
    expect(counter.kind).toBe("engine-counter");
    expect(await counter.read()).toBe(0);
    writeFileSync(file, "120\n");
    expect(await counter.read()).toBe(120);
    writeFileSync(file, "");
    expect(await counter.read()).toBe(120);
    rmSync(file);
    expect(await counter.read()).toBe(120);
    writeFileSync(file, "300");
    expect(await counter.read()).toBe(300);
    rmSync(dir, { recursive: true, force: true });
  });
});
