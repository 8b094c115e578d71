import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { KAFKA_SETTINGS } from "@bench/core";
import { jobEnv, latestCheckpoint } from "./job-env.ts";

const ctx = {
  bootstrap: "127.0.0.1:19092",
  kafka: KAFKA_SETTINGS,
  inputTopic: "in",
  outputTopic: "out",
  groupId: "g",
  parallelism: 3,
  runDir: "/runs/r1",
  stateDir: "/runs/r1/state",
  repoRoot: "/repo",
  modelsDir: "/repo/models",
  cacheDir: "/cache/flink",
  guarantee: "at-least-once" as const,
};

describe("jobEnv", () => {
  it("passes the bench settings and keeps Flink's files in the run's folder", () => {
    const env = jobEnv(ctx, "/cache/flink/jars/k.jar", "/jdk");
    expect(env).toMatchObject({
      BENCH_BOOTSTRAP: "127.0.0.1:19092",
      BENCH_INPUT_TOPIC: "in",
      BENCH_OUTPUT_TOPIC: "out",
      BENCH_GROUP_ID: "g",
      BENCH_PARALLELISM: "3",
      BENCH_MODELS_DIR: "/repo/models",
      BENCH_FLINK_JAR: "/cache/flink/jars/k.jar",
      JAVA_HOME: "/jdk",
    });
    for (const key of ["BENCH_CHECKPOINT_DIR", "BENCH_TMP_DIR", "FLINK_LOG_DIR"]) expect(env[key]?.startsWith("/runs/r1")).toBe(true);
  });

  it("keeps exactly-once checkpoints in the run's state folder and resumes from the newest completed one", () => {
    const state = mkdtempSync(join(tmpdir(), "flink-state-"));
    try {
      const eo = { ...ctx, stateDir: state, guarantee: "exactly-once" as const };
      expect(jobEnv(eo, "k.jar", "/jdk").BENCH_CHECKPOINT_DIR).toBe(join(state, "checkpoints"));
      expect(jobEnv(eo, "k.jar", "/jdk").BENCH_RESTORE_FROM).toBeUndefined();
      for (const [job, chk, done] of [["a", 7, true], ["b", 9, true], ["b", 10, false]] as const) {
        mkdirSync(join(state, "checkpoints", job, `chk-${chk}`), { recursive: true });
        if (done) writeFileSync(join(state, "checkpoints", job, `chk-${chk}`, "_metadata"), "");
      }
      expect(latestCheckpoint(join(state, "checkpoints"))).toBe(join(state, "checkpoints", "b", "chk-9"));
      expect(jobEnv(eo, "k.jar", "/jdk").BENCH_RESTORE_FROM).toBe(join(state, "checkpoints", "b", "chk-9"));
      // At-least-once starts clean every time, from the group's offsets.
      expect(jobEnv({ ...eo, guarantee: "at-least-once" }, "k.jar", "/jdk").BENCH_RESTORE_FROM).toBeUndefined();
    } finally {
      rmSync(state, { recursive: true, force: true });
    }
  });
});
