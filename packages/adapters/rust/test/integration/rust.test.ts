/**
 * The native app against the dev broker: the gate's fixtures in (256 generated records, then
 * every spelling case as its raw text), each scored out with the reference risk, the clients'
 * effective settings from librdkafka's own dump, the group's committed offset at the end, a
 * clean stop with nothing left running; the same under exactly-once; then poison pills skipped,
 * counted and committed.
 */
import { join } from "node:path";
import { execa } from "execa";
import { cacheRoot, cargoBuildCommand, effectiveSettingsMismatches, KAFKA_SETTINGS, modelsDir, repoRoot, transactionalIdFor } from "@bench/core";
import {
  describePoisonPills,
  expectScoredAndConsumed,
  requireBootstrap,
  scoreFixturesThroughProduct,
  topicsOfGroup,
  type LiveFixtureRun,
} from "@bench/core/testing";
import { APP_DIR } from "../../src/build.ts";
import { rust } from "../../src/product.ts";

const bootstrap = requireBootstrap();

const cacheDir = join(cacheRoot(), "rust");
const log = (line: string): void => console.log(line);

describe("rust adapter", () => {
  let run: LiveFixtureRun | undefined;

  afterAll(async () => {
    await run?.stop();
  });

  it("builds its app and fetches ONNX Runtime's library", async () => {
    const prep = await rust.prepare({ repoRoot: repoRoot(), modelsDir: modelsDir(), cacheDir, log });
    if (!prep.ok) throw new Error(prep.reason);
    expect(prep.versions).toMatchObject(
      {
        rdkafka: "0.39.0",
        librdkafka: "2.12.1",
        ort: "2.0.0-rc.15",
        onnxruntime: "1.31.1",
        "sonic-rs": "0.5.10",
        rustc: expect.stringMatching(/^\d+\.\d+\.\d+$/),
      },
    );
    expect(prep.deviations).toEqual([]);
    // A second prepare finds both in the cache: nothing is built or fetched again.
    const logged: string[] = [];
    const again = await rust.prepare({ repoRoot: repoRoot(), modelsDir: modelsDir(), cacheDir, log: (l) => logged.push(l) });
    expect(again.ok && again.found).toEqual(prep.found);
    expect(logged).toEqual([]);
  }, 1_800_000);

  it("passes the app's own unit tests (the record rule's reasons, the output's escaping), on the build's compiled crates", async () => {
    const build = cargoBuildCommand(APP_DIR, join(cacheDir, "target"));
    const result = await execa("cargo", ["test", "--release", "--locked"], { cwd: build.cwd, env: build.env, reject: false, all: true });
    expect(result.exitCode).toBe(0);
    expect(String(result.all)).toMatch(/^test result: ok\. [1-9]\d* passed; 0 failed/m);
  }, 900_000);

  it("scores every fixture record with the reference risk and commits, then stops cleanly", async () => {
    run = await scoreFixturesThroughProduct(rust, { bootstrap, cacheDir, topicPrefix: "rust-it", log, keepRunning: true });
    expectScoredAndConsumed(run, "group-offsets");
    // A plain client creates no topics of its own: no broker hop besides input and output.
    expect(await topicsOfGroup(bootstrap, run.topics)).toEqual([]);
    // librdkafka's debug=conf dump: both clients run with the shared settings.
    const logText = run.running.logTail(1000);
    expect(effectiveSettingsMismatches(logText, KAFKA_SETTINGS)).toEqual([]);
    // The app checked the card's probe rows before it consumed, and times its own stages.
    expect(logText).toMatch(/^model: \d+ probe rows reproduced, max error /m);
    expect(logText).toMatch(/^BENCH_STAGES records=\d+ fetch_us=\d+ decode_us=\d+ features_us=\d+ model_us=\d+ encode_us=\d+ produce_us=\d+ untimed_us=\d+$/m);

    // SIGTERM ends the loop after the batch in hand is delivered and committed: exit code 0.
    expect(await run.stop()).toEqual({ exit: { code: 0, signal: null }, aliveAfterStop: [] });
  }, 400_000);
});

describe("rust adapter under exactly-once", () => {
  let run: LiveFixtureRun | undefined;

  afterAll(async () => {
    await run?.stop();
  });

  it("scores every fixture record in one transaction a batch under the run's transactional id, its offsets committed with it", async () => {
    run = await scoreFixturesThroughProduct(rust, { bootstrap, cacheDir, topicPrefix: "rust-eo-it", guarantee: "exactly-once", log, keepRunning: true });
    // The gate reads read_committed: every output it saw was committed with the offsets the group holds.
    expectScoredAndConsumed(run, "group-offsets");
    const logText = run.running.logTail(1000);
    expect(effectiveSettingsMismatches(logText, KAFKA_SETTINGS)).toEqual([]);
    expect(logText).toContain(`transactional.id = ${transactionalIdFor(run.topics.groupId)}`);
    // SIGTERM ends the loop after the batch in hand's transaction is committed or aborted: exit code 0.
    expect(await run.stop()).toEqual({ exit: { code: 0, signal: null }, aliveAfterStop: [] });
  }, 400_000);
});

describePoisonPills(rust, { cacheDir, log, stopExit: { code: 0, signal: null } });
