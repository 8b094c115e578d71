import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { APP_SOURCES, buildKey, jarsKey, javaSources } from "./build.ts";
import { ARTIFACTS } from "./pins.ts";

const source = (path: string, text: string): { path: string; text: string } => ({ path, text });

describe("the app's build key", () => {
  const sources = [source("bench/A.java", "class A {}"), source("bench/B.java", "class B {}")];

  it("is stable: the same pins and sources give the same 16 hex digits", () => {
    expect(buildKey(ARTIFACTS, sources)).toMatch(/^[0-9a-f]{16}$/);
    expect(buildKey(ARTIFACTS, sources)).toBe(buildKey([...ARTIFACTS], sources.map((s) => ({ ...s }))));
  });

  it("changes with a source's text, a source's name and a pin", () => {
    const key = buildKey(ARTIFACTS, sources);
    expect(buildKey(ARTIFACTS, [sources[0]!, source("bench/B.java", "class B { }")])).not.toBe(key);
    expect(buildKey(ARTIFACTS, [sources[0]!, source("bench/C.java", "class B {}")])).not.toBe(key);
    expect(buildKey(ARTIFACTS.map((a) => (a.artifactId === "onnxruntime" ? { ...a, version: "1.28.0" } : a)), sources)).not.toBe(key);
  });

  it("does not let text slide between files (A+B and AB differ)", () => {
    expect(buildKey(ARTIFACTS, [source("x", "ab"), source("y", "c")])).not.toBe(buildKey(ARTIFACTS, [source("x", "a"), source("y", "bc")]));
  });

  it("keys the jars by the pins alone", () => {
    expect(jarsKey(ARTIFACTS)).toBe(buildKey(ARTIFACTS, []));
    expect(jarsKey(ARTIFACTS)).not.toBe(jarsKey(ARTIFACTS.slice(1)));
  });
});

describe("javaSources", () => {
  it("lists every .java file below the folder, sorted", () => {
    const dir = mkdtempSync(join(tmpdir(), "ks-sources-"));
    try {
      mkdirSync(join(dir, "bench", "sub"), { recursive: true });
      writeFileSync(join(dir, "bench", "Z.java"), "");
      writeFileSync(join(dir, "bench", "A.java"), "");
      writeFileSync(join(dir, "bench", "sub", "M.java"), "");
      writeFileSync(join(dir, "bench", "notes.txt"), "");
      expect(javaSources(dir)).toEqual([join(dir, "bench", "A.java"), join(dir, "bench", "Z.java"), join(dir, "bench", "sub", "M.java")]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("finds the app's classes", () => {
    expect(javaSources(APP_SOURCES).map((f) => f.slice(APP_SOURCES.length + 1))).toEqual(
      [
        "bench/InferMessages.java", "bench/ModelAlone.java", "bench/ModelCard.java", "bench/RecordCheck.java", "bench/RiskModel.java",
        "bench/ScoreApp.java", "bench/ScoreProcessor.java", "bench/Scorer.java", "bench/ServedModel.java",
      ],
    );
  });
});
