import { queryState } from "./query-state.ts";

describe("a Spark query's state folder", () => {
  it("is named by the run's group, so a restart with the same group finds the same checkpoint", () => {
    const a = queryState({ cacheDir: "/cache/spark", groupId: "bench.spark.2000.2026-12-01T17-42-57-425Z" });
    expect(a).toEqual({
      dir: "/cache/spark/queries/bench.spark.2000.2026-12-01T17-42-57-425Z",
      checkpoint: "/cache/spark/queries/bench.spark.2000.2026-12-01T17-42-57-425Z/checkpoint",
      progressFile: "/cache/spark/queries/bench.spark.2000.2026-12-01T17-42-57-425Z/progress.json",
    });
    expect(queryState({ cacheDir: "/c", groupId: "g/../x y" }).dir).toBe("/c/queries/g_.._x_y");
  });
});
