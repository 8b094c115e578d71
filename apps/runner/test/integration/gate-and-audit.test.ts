/**
 * The verification gate and the output audit against the real broker: a product whose scores
 * are wrong is not timed, lost, duplicated and mis-scored outputs are counted exactly, and a
 * product that writes outputs that are not JSON ends invalid, the offsets named, the run whole.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  cacheRoot, FIXTURE_COUNT, FIXTURE_SEED, fixturesDir, KafkaAdmin, loadGateRecords, makeTemplate, ManagedProcess, modelsDir, normalise,
  POOL_SIZE, produceMessages, ReferenceModel, repoRoot, type Product,
} from "@bench/core";
import { requireBootstrap } from "@bench/core/testing";
import { EXIT, exitCodeFor } from "../../src/exit-code.ts";
import { auditOutputs } from "../../src/run/audit.ts";
import { measureRun } from "../../src/run/measure.ts";

const bootstrap = requireBootstrap();

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
    return {
      rootPids: () => [app.pid],
      consumed: { kind: "group-offsets" },
      exited: app.exited,
      logTail: (n) => app.logTail(n),
      stop: async () => void (await app.stop()),
    };
  },
};

/** Scores right through the gate and the first 3,000 generated records, then goes wrong (late-wrong-scorer.ts). */
const lateWrongScorer = (goWrong: "constant" | "unparseable"): Product => ({
  ...brokenScorer,
  id: `late-${goWrong}-scorer`,
  start: async (ctx) => {
    const app = new ManagedProcess({
      command: process.execPath,
      args: ["--import", "tsx", join(import.meta.dirname, "late-wrong-scorer.ts")],
      cwd: join(import.meta.dirname, "..", ".."),
      env: {
        BENCH_BOOTSTRAP: ctx.bootstrap, BENCH_INPUT_TOPIC: ctx.inputTopic, BENCH_OUTPUT_TOPIC: ctx.outputTopic, BENCH_GROUP_ID: ctx.groupId,
        SCORE_RIGHT_FOR: String(FIXTURE_COUNT + 3000), GO_WRONG: goWrong,
      },
      logFile: join(ctx.runDir, `late-${goWrong}.log`),
    });
    await app.waitForLine(/BENCH_READY/, 30_000);
    return {
      rootPids: () => [app.pid],
      consumed: { kind: "group-offsets" },
      exited: app.exited,
      logTail: (n) => app.logTail(n),
      stop: async () => void (await app.stop()),
    };
  },
});

describe("verification gate and output audit", () => {
  let admin: KafkaAdmin;
  let reference: ReferenceModel;

  beforeAll(async () => {
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
        bootstrap, guarantee: "at-least-once", admin, reference, fixtures: loadGateRecords(fixturesDir()), repoRoot: repoRoot(), modelsDir: modelsDir(),
        cacheDir: cacheRoot(), resultsDir: mkdtempSync(join(tmpdir(), "bench-gate-")), speedReference: 0, log: () => undefined, interrupted: () => undefined,
      },
    );
    expect(run.status).toBe("invalid");
    // The worst fixture is named: the generated record or the spelling case it was.
    expect(run.reason).toMatch(/^verification failed: largest risk error .* \(fixture .*\) exceeds the card's tolerance 0\.00001/);
    expect(run.verification).toMatchObject({ passed: false, checked: FIXTURE_COUNT, fixtures: FIXTURE_COUNT });
    expect(run.throughput).toBeUndefined();
    expect(run.ticks).toHaveLength(0);
  }, 120_000);

  it("a product that passes the gate and then scores wrong is invalid: marked, counted, never a result", async () => {
    const run = await measureRun(
      lateWrongScorer("constant"),
      { ok: true, versions: {}, found: undefined },
      { rate: 1000, warmupSec: 2, settleCapSec: 30, windowSec: 6, parallelism: 1, seed: FIXTURE_SEED, drainTimeoutSec: 30, hangSec: 20 },
      {
        bootstrap, guarantee: "at-least-once", admin, reference, fixtures: loadGateRecords(fixturesDir()), repoRoot: repoRoot(), modelsDir: modelsDir(),
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

  it("a product that writes outputs that are not JSON ends invalid, the offsets named, exit 3, the run whole", async () => {
    const run = await measureRun(
      lateWrongScorer("unparseable"),
      { ok: true, versions: {}, found: undefined },
      { rate: 1000, warmupSec: 2, settleCapSec: 30, windowSec: 6, parallelism: 1, seed: FIXTURE_SEED, drainTimeoutSec: 30, hangSec: 20 },
      {
        bootstrap, guarantee: "at-least-once", admin, reference, fixtures: loadGateRecords(fixturesDir()), repoRoot: repoRoot(), modelsDir: modelsDir(),
        cacheDir: cacheRoot(), resultsDir: mkdtempSync(join(tmpdir(), "bench-unparseable-")), speedReference: 0, log: () => undefined,
        interrupted: () => undefined,
      },
    );
    // Invalid, not failed: the audit read the whole topic instead of throwing out of it.
    expect(run.verification?.passed).toBe(true);
    expect(run.status).toBe("invalid");
    const d = run.delivery!;
    expect(d.badOutputs).toBeGreaterThanOrEqual(2);
    // Each unparseable output left its record undelivered, and nothing else was lost.
    expect(d.lost).toBe(d.badOutputs);
    const [first, second] = d.badOutputSamples ?? [];
    expect(first).toMatchObject({ why: "not JSON", head: expect.stringMatching(/^"\{\\"event_id\\":\\"e\d+\\",.*"risk\\":[\d.e-]+"$/) });
    // The first bad one is the 1000th record after the 3,000 scored right, give or take the order in which scores resolved.
    expect(first!.offset).toBeGreaterThanOrEqual(FIXTURE_COUNT + 3000);
    expect(run.reason).toMatch(
      new RegExp(`^${d.badOutputs} bad outputs at offsets ${first!.offset}, ${second!.offset}.* \\(offset ${first!.offset}: not JSON, "\\{`),
    );
    expect(run.reason?.split("\n")).toHaveLength(1);
    expect(run.throughput).toBeDefined();
    expect(exitCodeFor([run], false)).toBe(EXIT.failedOrInvalid);
    expect(EXIT.failedOrInvalid).toBe(3);
  }, 120_000);

  it("counts lost and duplicated event ids and re-scores outputs exactly", async () => {
    const topic = `bench.audit.${Date.now()}`;
    await admin.createTopics([{ name: topic, config: { "message.timestamp.type": "LogAppendTime" } }]);
    const produced = 1000;
    const lost = new Set([3, 77, 500, 998, 999]);
    const duplicated = [10, 11, 11, 600];
    const misScored = 42;
    // What RisingWave writes for a chunk whose UDF call failed: no score, a bad output that delivers nothing.
    const nullRisk = 43;
    const seqs = [...Array.from({ length: produced }, (_, i) => i).filter((s) => !lost.has(s)), ...duplicated];
    const risks = await reference.score(Float32Array.from(seqs.flatMap((s) => normalise(makeTemplate(FIXTURE_SEED, s % POOL_SIZE)))));
    const now = Date.now();
    await produceMessages(
      bootstrap,
      topic,
      seqs.map(
        (seq, i) => ({
          key: null,
          value: JSON.stringify(
            { event_id: `e${seq}`, ts_ms: now, risk: seq === misScored ? (risks[i] as number) + 0.01 : seq === nullRisk ? null : risks[i] },
          ),
        }),
      ),
    );
    const audit = {
      bootstrap: bootstrap, outputTopic: topic, produced, outputEnd: seqs.length, seed: FIXTURE_SEED, reference,
      passthrough: false, tolerance: reference.card.tolerance, windowMs: [now - 1, now + 1] as [number, number],
    };
    const check = await auditOutputs(audit);
    expect(check).toMatchObject({ produced: 1000, distinctOutputs: 994, lost: 6, duplicated: 4, scoresChecked: seqs.length - 1, misScored: 1, badOutputs: 1 });
    expect(check.badOutputSamples).toEqual(
      [{ offset: seqs.indexOf(nullRisk), why: "risk null is not a number", head: expect.stringContaining(`e${nullRisk}`) }],
    );
    expect(check.maxScoreError).toBeCloseTo(0.01, 6);
    expect(check.latencyMs?.count).toBe(seqs.length - 1);
    expect(check.latencyMs!.p50).toBeGreaterThanOrEqual(0);
    // Split between readers in child processes (as a large topic is), the audit finds the same.
    expect(await auditOutputs({ ...audit, readers: 3 })).toEqual(check);
    await admin.deleteTopics([topic]);
  }, 60_000);
});
