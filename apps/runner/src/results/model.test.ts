import type { ModelCard } from "@bench/core";
import { modelOf, multiplyAddsPerRecord } from "./model.ts";

describe("multiplyAddsPerRecord", () => {
  it("counts each Linear layer's inputs × outputs", () => {
    expect(multiplyAddsPerRecord(4, [16])).toBe(4 * 16 + 16);
    expect(multiplyAddsPerRecord(4, [128, 128])).toBe(4 * 128 + 128 * 128 + 128);
  });
});

describe("modelOf", () => {
  it("reads a card without hidden widths as the seed's 4-16-1 network", () => {
    const card = { name: "risk_mlp", features: ["a", "b", "c", "d"], weights_sha256: "ab" } as unknown as ModelCard;
    expect(modelOf(card)).toEqual({ name: "risk_mlp", hidden: [16], multiplyAddsPerRecord: 80, weightsSha256: "ab" });
  });
});
