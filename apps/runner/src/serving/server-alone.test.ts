import { loadModelCard, modelsDir, type Product } from "@bench/core";
import { oneRepetition, probeBatch, servedShapes } from "./server-alone.ts";

const product = (id: string, records?: number): Product =>
  ({ id, ...(records !== undefined ? { modelCall: { runtime: "torch", records } } : {}) }) as Product;

describe("servedShapes", () => {
  it("groups the served rows by the records a call holds, fewest first, and passes over a row that calls no model", () => {
    const shapes = servedShapes([product("node", 10_000), product("kafka-streams", 1), product("confluent-kafka", 10_000), product("ceiling")]);
    expect(shapes).toEqual([{ records: 1, usedBy: ["kafka-streams"] }, { records: 10_000, usedBy: ["node", "confluent-kafka"] }]);
  });
});

describe("probeBatch", () => {
  it("is a row-major [records, 4] batch of the card's probe rows, cycled", () => {
    const card = loadModelCard(modelsDir(), "risk_mlp");
    const records = card.probes.length * 2 + 1;
    const batch = probeBatch(card, records);
    expect(batch.length).toBe(records * 4);
    const row = (r: number): number[] => Array.from(batch.slice(r * 4, r * 4 + 4));
    expect(row(0)).toEqual(Array.from(Float32Array.from(card.probes[0]?.features ?? [])));
    expect(row(card.probes.length)).toEqual(row(0));
    expect(row(records - 1)).toEqual(row(0));
  });

  it("refuses a card with no probe rows", () => {
    const card = { ...loadModelCard(modelsDir(), "risk_mlp"), probes: [] };
    expect(() => probeBatch(card, 3)).toThrow("has no probe rows");
  });
});

describe("oneRepetition", () => {
  it("divides the CPU the trees under the roots spent while calling by the records the calls scored", async () => {
    let calls = 0;
    // This process is the "server": each call burns some of its CPU and scores 1,000 records.
    const call = async (): Promise<number> => {
      calls++;
      const until = Date.now() + 20;
      while (Date.now() < until);
      return 1_000;
    };
    const micros = await oneRepetition(() => [process.pid], call, 200);
    expect(calls).toBeGreaterThan(0);
    expect(Number.isFinite(micros)).toBe(true);
    expect(micros).toBeGreaterThan(0);
  });

  it("reads no CPU from a tree that is gone, and calls at least once however short the repetition", async () => {
    let calls = 0;
    const micros = await oneRepetition(() => [2 ** 22 + 1], async () => (calls++, 10), 0);
    expect(calls).toBe(1);
    expect(micros).toBe(0);
  });

  it("refuses a repetition whose calls scored no records", async () => {
    await expect(oneRepetition(() => [process.pid], async () => 0, 0)).rejects.toThrow("scored no records");
  });
});
