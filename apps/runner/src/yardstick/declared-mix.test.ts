import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { declaredMixes, readDeclaredMixes } from "./declared-mix.ts";

describe("declared runtime mixes", () => {
  let dir: string;
  const adapter = (folder: string, bench: unknown): void => {
    mkdirSync(join(dir, folder), { recursive: true });
    writeFileSync(join(dir, folder, "package.json"), JSON.stringify({ name: `@bench/adapter-${folder}`, bench }));
  };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "declared-mix-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("reads each adapter's mixes by product id, and passes over folders that declare none", () => {
    adapter("a", { mix: { a: { cpython: 0.9, native: 0.1 }, "a-passthrough": { v8: 1 } } });
    adapter("b", { apt: ["x"] });
    mkdirSync(join(dir, "notes"));
    expect(readDeclaredMixes(dir)).toEqual({ a: { cpython: 0.9, native: 0.1 }, "a-passthrough": { v8: 1 } });
  });

  it("refuses a mix that is not one: an unknown runtime, shares not summing to 1, a product declared twice", () => {
    adapter("a", { mix: { a: { python: 1 } } });
    expect(() => readDeclaredMixes(dir)).toThrow(/unknown runtime "python"/);
    adapter("a", { mix: { a: { cpython: 0.5 } } });
    expect(() => readDeclaredMixes(dir)).toThrow(/sum to 0.5, not 1/);
    adapter("a", { mix: { a: { cpython: 1 } } });
    adapter("b", { mix: { a: { jvm: 1 } } });
    expect(() => readDeclaredMixes(dir)).toThrow(/"a", which another adapter declares too/);
  });

  it("reads the repository's adapters: every row that was profiled declares its mix", () => {
    const mixes = declaredMixes();
    for (const id of [
      "node",
      "node-passthrough",
      "confluent-kafka",
      "quix",
      "faststream",
      "bytewax",
      "pathway",
      "flink",
      "spark",
      "kafka-streams",
    ]) expect(mixes[id]).toBeDefined();
    expect(mixes["kafka-streams"]).toEqual({ jvm: 1 });
  });
});
