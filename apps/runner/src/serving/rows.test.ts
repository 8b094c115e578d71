import type { Product, RunContext } from "@bench/core";
import { servedRows } from "./rows.ts";

function row(id: string, served?: Product["served"]): Product & { contexts: RunContext[] } {
  const contexts: RunContext[] = [];
  return {
    id,
    contexts,
    row: { delivery: "d", processing: "batch", engine: "e", scaling: "s", decode: "full" },
    ...(served ? { served } : {}),
    prepare: async () => ({ ok: true, found: undefined, versions: {} }),
    start: async (ctx) => {
      contexts.push(ctx);
      throw new Error("started");
    },
  };
}

const ctx = { bootstrap: "b", inputTopic: "in", outputTopic: "out", groupId: "g" } as RunContext;

describe("servedRows", () => {
  it("runs every chosen row as it is when embedded", () => {
    const rows = [row("a"), row("b", { offered: false, why: "no client" })];
    const { runnable, skipped } = servedRows(rows, "embedded", () => "127.0.0.1:1");
    expect(runnable).toEqual(rows);
    expect(skipped).toEqual([]);
  });

  it("hands a served row the server's address at every start and says so in its processing", async () => {
    const offering = row("a", { offered: true, how: "one gRPC call per batch" });
    let address = "127.0.0.1:1";
    const { runnable } = servedRows([offering], "served", () => address);
    expect(runnable[0]?.row.processing).toBe("batch; served: one gRPC call per batch");
    await expect(runnable[0]?.start(ctx, undefined)).rejects.toThrow("started");
    address = "127.0.0.1:2";
    await expect(runnable[0]?.start(ctx, undefined)).rejects.toThrow("started");
    expect(offering.contexts.map((c) => c.modelServer)).toEqual(["127.0.0.1:1", "127.0.0.1:2"]);
    expect(offering.contexts[0]?.groupId).toBe("g");
  });

  it("skips a row that cannot call a server with its reason, and one whose adapter does not say", () => {
    const { runnable, skipped } = servedRows([row("a", { offered: false, why: "its SQL calls no UDF" }), row("b")], "served", () => "x:1");
    expect(runnable).toEqual([]);
    expect(skipped.map((s) => [s.product.id, s.reason])).toEqual([
      ["a", "calls no model server: its SQL calls no UDF"],
      ["b", "calls no model server: its adapter does not declare whether the row can call a model server"],
    ]);
  });
});
