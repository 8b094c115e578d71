import { readFileSync } from "node:fs";
import { join } from "node:path";
import { classifyStack, classifyStacks, classifyThread } from "@bench/core";
import { rustProfileRules } from "./profile-rules.ts";

const { frames, threads } = rustProfileRules;
/** The stage names the app prints in its BENCH_STAGES line, read from its source. */
const appStages = [
  ...readFileSync(join(import.meta.dirname, "..", "app", "src", "stages.rs"), "utf8").matchAll(/Stage::\w+ => "([a-z]+)"/g),
].map((m) => m[1] as string);

describe("rust profile rules", () => {
  it("give every stage the app times its own category", () => {
    expect(appStages).toEqual(["fetch", "decode", "features", "model", "encode", "produce"]);
    for (const stage of appStages) expect(classifyStack([`stage:${stage}`], frames)).toBe(stage);
  });

  it("leave the thread's CPU outside every stage as other, never folded into a stage", () => {
    expect(classifyStack(["stage:untimed"], frames)).toBe("other");
  });

  it("weigh the stages by their microseconds", () => {
    const counts = classifyStacks([{ frames: ["stage:decode"], count: 300 }, { frames: ["stage:model"], count: 100 }], frames);
    expect([counts.decode, counts.model, counts.other]).toEqual([300, 100, 0]);
  });

  it("count librdkafka's own threads as fetch, and the app's thread by its stages", () => {
    expect(classifyThread("rdk:broker1", threads)).toBe("fetch");
    expect(classifyThread("rdk:main", threads)).toBe("fetch");
    expect(classifyThread("rust-row", threads)).toBeUndefined();
  });
});
