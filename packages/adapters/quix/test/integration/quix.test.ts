/**
 * The quix app against the dev broker: the gate's fixtures in (256 generated records, then
 * every spelling case as its raw text), each scored out with the reference risk, the group's
 * committed offset at the end, a clean stop.
 */
import { join } from "node:path";
import { cacheRoot, effectiveSettingsMismatches, KAFKA_SETTINGS } from "@bench/core";
import {
  describePoisonPills,
  expectScoredAndConsumed,
  prepareOrThrow,
  requireBootstrap,
  scoreFixturesThroughProduct,
  topicsOfGroup,
  type LiveFixtureRun,
} from "@bench/core/testing";
import { quix } from "../../src/product.ts";

const bootstrap = requireBootstrap();
const cacheDir = join(cacheRoot(), "quix");
const log = (line: string): void => console.log(line);

describe("quix adapter", () => {
  let run: LiveFixtureRun | undefined;

  afterAll(async () => {
    await run?.stop();
  });

  it("prepares its pinned environment", async () => {
    const prep = await prepareOrThrow(quix, { cacheDir, log });
    expect(prep.versions.quix).toBe("3.28.1");
    expect(prep.versions.python).toMatch(/^3\.11\./);
    expect(prep.versions.torch).toMatch(/^\d+\.\d+/);
  }, 900_000);

  it("scores every fixture record with the reference risk and commits, then stops cleanly", async () => {
    run = await scoreFixturesThroughProduct(quix, { bootstrap, cacheDir, topicPrefix: "quix-it", log, keepRunning: true });
    expectScoredAndConsumed(run, "group-offsets");
    // Quix's own topics (changelogs, repartitions, named after the group) would be broker hops: the app has none.
    expect(await topicsOfGroup(bootstrap, run.topics)).toEqual([]);
    expect(effectiveSettingsMismatches(run.running.logTail(500), KAFKA_SETTINGS)).toEqual([]);

    // quixstreams handles SIGTERM: last checkpoint committed, exit code 0.
    expect(await run.stop()).toEqual({ exit: { code: 0, signal: null }, aliveAfterStop: [] });
  }, 400_000);
});

describePoisonPills(quix, { cacheDir, log, stopExit: { code: 0, signal: null } });
