import type { Product } from "@bench/core";
import { gatherNeeds } from "./needs.ts";

const product = (id: string, extra: Partial<Product> = {}): Product => ({
  id,
  row: { delivery: "", processing: "", engine: "", scaling: "", decode: "" },
  prepare: async () => ({ ok: false, reason: "not in a unit test" }),
  start: async () => {
    throw new Error("not in a unit test");
  },
  ...extra,
});

describe("gatherNeeds", () => {
  it("asks each product, in order; a product that says nothing needs nothing beyond the bench", async () => {
    const needs = await gatherNeeds([product("a"), product("b", { prerequisites: async () => [{ name: "tool", have: "1.0", ok: true }] })]);
    expect(needs).toEqual([
      { product: "a", prerequisites: [] },
      { product: "b", prerequisites: [{ name: "tool", have: "1.0", ok: true }] },
    ]);
  });

  it("turns a lookup that throws into an unmet prerequisite of that product alone", async () => {
    const needs = await gatherNeeds([
      product("broken", {
        prerequisites: async () => {
          throw new Error("cannot stat /x\nstack…");
        },
      }),
      product("fine"),
    ]);
    expect(needs[0]).toEqual({
      product: "broken",
      prerequisites: [
        {
          name: "broken prerequisites",
          have: "an error",
          ok: false,
          reason: "its prerequisites() threw: cannot stat /x",
          fix: "fix the adapter's prerequisites(); its prepare() still decides whether it runs",
        },
      ],
    });
    expect(needs[1]).toEqual({ product: "fine", prerequisites: [] });
  });
});
