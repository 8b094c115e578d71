import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { counterReader, GroupStateFolders, parseCounter, recoveryInitialised, RECOVERY_DIR, RECOVERY_PARTITION } from "./state.ts";

describe("state folders", () => {
  it("gives a group the state folder of its first start, whatever run folder a restart has", () => {
    const folders = new GroupStateFolders();
    const first = folders.folderFor("bench.g1", "/results/runs/bytewax-faults");
    expect(first).toBe("/results/runs/bytewax-faults/bytewax-state");
    expect(folders.folderFor("bench.g1", "/results/runs/bytewax-faults/restart")).toBe(first);
    expect(folders.folderFor("bench.g2", "/results/runs/other")).toBe("/results/runs/other/bytewax-state");
  });

  it("calls the recovery directory initialised only once its partition file exists", () => {
    const dir = mkdtempSync(join(tmpdir(), "bytewax-state-"));
    try {
      expect(recoveryInitialised(dir)).toBe(false);
      mkdirSync(join(dir, RECOVERY_DIR));
      expect(recoveryInitialised(dir)).toBe(false);
      writeFileSync(join(dir, RECOVERY_DIR, RECOVERY_PARTITION), "");
      expect(recoveryInitialised(dir)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the consumed counter", () => {
  it("reads one whole number and nothing else", () => {
    expect(parseCounter("268\n")).toBe(268);
    expect(parseCounter("0")).toBe(0);
    for (const bad of ["", "\n", "12.5", "-3", "1e3", "12 13", "abc"]) expect(parseCounter(bad)).toBeUndefined();
  });

  it("reads 0 before the file exists, then each number written, and keeps the last one while the file is gone or bad", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bytewax-counter-"));
    const file = join(dir, "consumed");
    const read = counterReader(file);
    try {
      expect(await read()).toBe(0);
      writeFileSync(`${file}.tmp`, "1200\n");
      renameSync(`${file}.tmp`, file);
      expect(await read()).toBe(1200);
      writeFileSync(file, "");
      expect(await read()).toBe(1200);
      rmSync(file);
      expect(await read()).toBe(1200);
      writeFileSync(file, "5000\n");
      expect(await read()).toBe(5000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
