import { queryState } from "./query-state.ts";

describe("a Spark query's state folder", () => {
  it("lives in the run's state folder, so a restart handed the same one finds the same checkpoint", () => {
    expect(queryState({ stateDir: "/results/runs/spark-1/state" })).toEqual({
      dir: "/results/runs/spark-1/state/spark-query",
      checkpoint: "/results/runs/spark-1/state/spark-query/checkpoint",
      progressFile: "/results/runs/spark-1/state/spark-query/progress.json",
    });
  });
});
