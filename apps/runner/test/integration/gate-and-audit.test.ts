/**
 * The verification gate and the output audit against the real broker: a product whose scores
 * are wrong is not timed, and lost, duplicated and mis-scored outputs are counted exactly.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  cacheRoot, FIXTURE_SEED, fixturesDir, KafkaAdmin, loadFixtures, makeTemplate, ManagedProcess, modelsDir, normalise,
  POOL_SIZE, produceMessages, ReferenceModel, repoRoot, type Product,
} from "@bench/core";
import { EXIT, exitCodeFor } from "../../src/exit-code.ts";
import { auditOutputs } from "../../src/run/audit.ts";
import { measureRun } from "../../src/run/measure.ts";

const bootstrap = process.env.BENCH_BOOTSTRAP;

const brokenScorer: Product = {
  id: "broken-scorer",
  row: { delivery: "-", processing: "-", engine: "-", scaling: "-", decode: "-" },
  prepare: async () => ({ ok: true, versions: {}, found: undefined }),
  start: async (ctx) => {
    const app = new ManagedProcess({
      command: process.execPath,
      args: [join(import.meta.dirname, "broken-scorer.mjs")],
      cwd: join(import.meta.dirname, "..", ".."),
      env: { BENCH_BOOTSTRAP: ctx.bootstrap, BENCH_INPUT_TOPIC: ctx.inputTopic, BENCH_OUTPUT_TOPIC: ctx.outputTopic, BENCH_GROUP_ID: ctx.groupId },
      logFile: join(ctx.runDir, "broken.log"),
    });
    await app.waitForLine(/BENCH_READY/, 30_000);
    return { rootPids: () => [app.pid], consumed: { kind: "group-offsets" }, exited: app.exited, logTail: (n) => app.logTail(n), stop: async () => void (await app.stop()) };
  },
};

/** Scores right through the gate and the first 3,000 generated records, then a constant. */
const lateWrongScorer: Product = {
  ...brokenScorer,
  id: "late-wrong-scorer",
  start: async (ctx) => {
    const app = new ManagedProcess({
      command: process.execPath,
      args: ["--import", "tsx", join(import.meta.dirname, "late-wrong-scorer.ts")],
      cwd: join(import.meta.dirname, "..", ".."),
      env: { BENCH_BOOTSTRAP: ctx.bootstrap, BENCH_INPUT_TOPIC: ctx.inputTopic, BENCH_OUTPUT_TOPIC: ctx.outputTopic, BENCH_GROUP_ID: ctx.groupId, SCORE_RIGHT_FOR: String(256 + 3000) },
      logFile: join(ctx.runDir, "late-wrong.log"),
    });
    await app.waitForLine(/BENCH_READY/, 30_000);
    return { rootPids: () => [app.pid], consumed: { kind: "group-offsets" }, exited: app.exited, logTail: (n) => app.logTail(n), stop: async () => void (await app.stop()) };
  },
};

describe("verification gate and output audit", () => {
  let admin: KafkaAdmin;
  let reference: ReferenceModel;

  beforeAll(async () => {
    if (!bootstrap) throw new Error("BENCH_BOOTSTRAP is not set: run through scripts/test.sh, which starts a broker");
    admin = await KafkaAdmin.connect(bootstrap);
    reference = await ReferenceModel.load(modelsDir());
  });
  afterAll(async () => admin?.close());

  it("rejects a product whose scores are wrong before any timing", async () => {
    const run = await measureRun(
      brokenScorer,
      { ok: true, versions: {}, found: undefined },
      { rate: 1000, warmupSec: 2, settleCapSec: 30, windowSec: 5, parallelism: 1, seed: FIXTURE_SEED, drainTimeoutSec: 10, hangSec: 20 },
      {
        bootstrap: bootstrap as string, admin, reference, fixtures: loadFixtures(fixturesDir()), repoRoot: repoRoot(), modelsDir: modelsDir(),
        cacheDir: cacheRoot(), resultsDir: mkdtempSync(join(tmpdir(), "bench-gate-")), speedReference: 0, log: () => undefined, interrupted: () => undefined,
      },
    );
    expect(run.status).toBe("invalid");
    expect(run.reason).toMatch(/^verification failed: largest risk error .* exceeds the card's tolerance 0\.00001/);
    expect(run.verification).toMatchObject({ passed: false, checked: 256 });
    expect(run.throughput).toBeUndefined();
    expect(run.ticks).toHaveLength(0);
  }, 120_000);

  it("a product that passes the gate and then scores wrong is invalid: marked, counted, never a result", async () => {
    const run = await measureRun(
      lateWrongScorer,
      { ok: true, versions: {}, found: undefined },
      { rate: 1000, warmupSec: 2, settleCapSec: 30, windowSec: 6, parallelism: 1, seed: FIXTURE_SEED, drainTimeoutSec: 30, hangSec: 20 },
      {
        bootstrap: bootstrap as string, admin, reference, fixtures: loadFixtures(fixturesDir()), repoRoot: repoRoot(), modelsDir: modelsDir(),
        cacheDir: cacheRoot(), resultsDir: mkdtempSync(join(tmpdir(), "bench-late-")), speedReference: 0, log: () => undefined, interrupted: () => undefined,
      },
    );
    expect(run.verification?.passed).toBe(true);
    expect(run.status).toBe("invalid");
    expect(run.delivery!.lost).toBe(0);
    expect(run.delivery!.misScored).toBeGreaterThan(0);
    expect(run.reason).toMatch(new RegExp(`^mis-scored ${run.delivery!.misScored} of ${run.delivery!.scoresChecked} checked`));
    expect(run.throughput).toBeDefined(); // its figures are kept, marked, for the reader to see
    expect(exitCodeFor([run], false)).toBe(EXIT.failedOrInvalid);
  }, 120_000);

  it("counts lost and duplicated event ids and re-scores outputs exactly", async () => {
    const topic = `bench.audit.${Date.now()}`;
    await admin.createTopics([{ name: topic, config: { "message.timestamp.type": "LogAppendTime" } }]);
    const produced = 1000;
    const lost = new Set([3, 77, 500, 998, 999]);
    const duplicated = [10, 11, 11, 600];
    const misScored = 42;
    const nullRisk = 43; // what RisingWave writes for a chunk whose UDF call failed
    const seqs = [...Array.from({ length: produced }, (_, i) => i).filter((s) => !lost.has(s)), ...duplicated];
    const risks = await reference.score(Float32Array.from(seqs.flatMap((s) => normalise(makeTemplate(FIXTURE_SEED, s % POOL_SIZE)))));
    const now = Date.now();
    await produceMessages(
      bootstrap as string,
      topic,
      seqs.map((seq, i) => ({ key: null, value: JSON.stringify({ event_id: `e${seq}`, ts_ms: now, risk: seq === misScored ? (risks[i] as number) + 0.01 : seq === nullRisk ? null : risks[i] }) })),
    );
    const check = await auditOutputs({
      bootstrap: bootstrap as string, outputTopic: topic, produced, outputEnd: seqs.length, seed: FIXTURE_SEED, reference,
      passthrough: false, tolerance: reference.card.tolerance, windowMs: [now - 1, now + 1],
    });
    expect(check).toMatchObject({ produced: 1000, distinctOutputs: 995, lost: 5, duplicated: 4, scoresChecked: seqs.length, misScored: 2 });
    expect(check.maxScoreError).toBe(Number.POSITIVE_INFINITY);
    expect(check.latencyMs?.count).toBe(seqs.length);
    expect(check.latencyMs!.p50).toBeGreaterThanOrEqual(0);
    await admin.deleteTopics([topic]);
  }, 60_000);
});
