import { KAFKA_SETTINGS } from "@bench/core";
import { CONSUMED_DESCRIBE, pathwayAppEnv, persistenceDir } from "./app-env.ts";

const ctx = {
  bootstrap: "127.0.0.1:9092",
  inputTopic: "in",
  outputTopic: "out",
  groupId: "bench.r1",
  parallelism: 2,
  modelsDir: "/repo/models",
  kafka: KAFKA_SETTINGS,
  runDir: "/results/runs/pathway-1",
  stateDir: "/results/runs/pathway-1/state",
};

describe("pathway app environment", () => {
  it("maps --parallelism to Pathway's engine threads and names its files", () => {
    expect(pathwayAppEnv(ctx)).toMatchObject({
      PATHWAY_THREADS: "2",
      BENCH_PATHWAY_CONSUMED_FILE: "/results/runs/pathway-1/pathway-consumed.txt",
      BENCH_PATHWAY_STATE_DIR: "/results/runs/pathway-1/state/pathway-persistence",
      BENCH_GROUP_ID: "bench.r1",
    });
  });

  it("keeps the persisted state where a restart (new run folder, same state folder) finds it", () => {
    expect(persistenceDir({ ...ctx, runDir: "/results/runs/pathway-1/restart" } as typeof ctx)).toBe(persistenceDir(ctx));
  });

  it("never asks for zero threads", () => {
    expect(pathwayAppEnv({ ...ctx, parallelism: 0 }).PATHWAY_THREADS).toBe("1");
  });

  it("names its counter file on the page by its name, never by the path of the machine that ran it", () => {
    expect(CONSUMED_DESCRIBE).toContain("rewritten each second to pathway-consumed.txt in the run's folder");
    expect(CONSUMED_DESCRIBE).not.toMatch(/\//);
  });
});
