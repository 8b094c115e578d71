/**
 * The server alone against the bench's real model server, started as a served bench starts it: the
 * runner's client, checked against the card's probes, calls it back to back at three call shapes,
 * and each repetition reads CPU from the server's own process tree.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cacheRoot, modelsDir } from "@bench/core";
import { SERVER_ALONE_REPS, timeServerAlone } from "../../src/serving/server-alone.ts";
import { startServing, type ServingTarget } from "../../src/serving/target.ts";

describe("the server alone", () => {
  let serving: ServingTarget | undefined;
  const log = (line: string): void => console.log(line);

  beforeAll(async () => {
    const resultsDir = mkdtempSync(join(tmpdir(), "server-alone-it-"));
    serving = await startServing({ serving: "served", cacheRoot: cacheRoot(), modelsDir: modelsDir(), model: "risk_mlp", resultsDir, log });
  }, 900_000);

  afterAll(async () => {
    await serving?.stop();
  });

  it("times the server's own process tree at each shape, every repetition a positive µs per record", async () => {
    const target = serving as ServingTarget;
    const shapes = [{ records: 1, usedBy: ["kafka-streams"] }, { records: 1_000, usedBy: ["flink"] }, { records: 10_000, usedBy: ["node"] }];
    const run = await timeServerAlone({ serving: target, modelsDir: modelsDir(), log }, shapes, 2);
    expect(run.round).toBe(2);
    expect(run.shapes.map((s) => [s.records, s.usedBy])).toEqual(shapes.map((s) => [s.records, s.usedBy]));
    for (const shape of run.shapes) {
      expect(shape.usPerRecord).toHaveLength(SERVER_ALONE_REPS);
      for (const micros of shape.usPerRecord) expect(Number.isFinite(micros) && micros > 0).toBe(true);
    }
    console.log(`server alone: ${run.shapes.map((s) => `${s.records} a call ${s.usPerRecord.map((m) => m.toFixed(2)).join("/")} µs`).join(", ")}`);
  }, 300_000);
});
