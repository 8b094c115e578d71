import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { classifyStacks } from "@bench/core";
import { lastStages, parseStagesLine, stageStacks } from "./app-stages.ts";

describe("a native app's own stage timings", () => {
  it("reads a BENCH_STAGES line and nothing else", () => {
    expect(parseStagesLine("BENCH_STAGES records=10 fetch_us=5 decode_us=7")).toEqual(new Map([["fetch", 5], ["decode", 7]]));
    expect(parseStagesLine("skipped record at offset 3: no event_id string (skipped 1)")).toBeUndefined();
    expect(parseStagesLine("BENCH_STAGES records=0")).toBeUndefined();
  });

  it("turns the CPU spent between two readings into one stack per stage, for the row's rules", () => {
    const stacks = stageStacks(new Map([["fetch", 100], ["decode", 50], ["model", 10]]), new Map([["fetch", 400], ["decode", 50], ["model", 110]]));
    expect(stacks).toEqual([
      { frames: ["stage:fetch"], count: 300 },
      { frames: ["stage:model"], count: 100 },
    ]);
    const counts = classifyStacks(stacks, [
      { category: "fetch", frame: /^stage:fetch$/ },
      { category: "model", frame: /^stage:model$/ },
    ]);
    expect([counts.fetch, counts.model, counts.other]).toEqual([300, 100, 0]);
  });

  describe("in a run folder's logs", () => {
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), "stages-"));
      writeFileSync(
        join(dir, "rust.log"),
        ["BENCH_READY", "BENCH_STAGES records=1 fetch_us=1", "noise", "BENCH_STAGES records=2 fetch_us=9", "last line"].join("\n"),
      );
      writeFileSync(join(dir, "notes.txt"), "BENCH_STAGES records=3 fetch_us=99");
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it("takes the last line of the logs", () => {
      expect(lastStages(dir)).toEqual(new Map([["fetch", 9]]));
      expect(lastStages(join(dir, "missing"))).toBeUndefined();
    });
  });
});
