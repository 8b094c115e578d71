/**
 * gendata across the broker's restarts, against a broker this test starts itself (the suite's
 * shared broker must not be stopped under the other tests): gendata runs at a low rate, the
 * broker is stopped cleanly (SIGTERM) and then hard (SIGKILL), each time kept down a few seconds
 * and started again on the same port and data; after each, gendata's delivered count must pass
 * what it had sent when the broker came back, with no help from the test. At the end every
 * record it sent is in the input topic exactly once (the idempotent producer's promise).
 */
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cacheRoot, KafkaAdmin } from "@bench/core";
import { KafkaBroker } from "../../src/broker/kafka-broker.ts";
import { GendataProcess, type GendataReport } from "../../src/run/gendata-process.ts";

const RATE = 500;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Waits until `ok` holds for gendata's latest report, or fails with its log tail after `limitMs`. */
async function until(feed: GendataProcess, ok: (r: GendataReport) => boolean, limitMs: number, what: string): Promise<GendataReport> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const latest = feed.latest();
    if (latest && ok(latest)) return latest;
    if (Date.now() > deadline) throw new Error(`gendata ${what} within ${limitMs / 1000} s: ${JSON.stringify(latest)}\n${feed.logTail()}`);
    await sleep(250);
  }
}

describe("gendata across broker restarts", () => {
  let broker: KafkaBroker;
  let admin: KafkaAdmin;
  let feed: GendataProcess | undefined;
  const dir = mkdtempSync(join(tmpdir(), "gendata-restart-it-"));

  beforeAll(async () => {
    const kafkaCache = join(cacheRoot(), "kafka");
    mkdirSync(kafkaCache, { recursive: true });
    broker = await KafkaBroker.start({ cacheDir: kafkaCache, logFile: join(dir, "broker.log"), log: () => undefined });
    admin = await KafkaAdmin.connect(broker.bootstrap);
  }, 180_000);
  afterAll(async () => {
    await feed?.stop().catch(() => undefined);
    await admin?.close().catch(() => undefined);
    await broker?.stop();
  }, 120_000);

  it("resumes by itself after a clean and after a hard restart, and every sent record lands once", async () => {
    const topic = "gendata-restart";
    await admin.createTopics([{ name: topic }]);
    feed = new GendataProcess({ bootstrap: broker.bootstrap, topic, rate: RATE, seed: 7, startSeq: 0, logFile: join(dir, "gendata.log") });
    await until(feed, (r) => r.delivered >= RATE * 3, 60_000, "did not deliver its first records");

    for (const hard of [false, true]) {
      await broker.restart({ hard, downMs: 5_000 });
      // Admin clients reconnect too: the test's own, for the final count.
      const sentWhenBack = (feed.latest() as GendataReport).sent;
      const resumed = await until(feed, (r) => r.delivered > sentWhenBack + RATE * 2, 90_000, `did not resume after a ${hard ? "hard" : "clean"} restart`);
      expect(resumed.sent).toBeGreaterThan(sentWhenBack);
    }

    const final = (await feed.stop()) as GendataReport;
    feed = undefined;
    expect(final.final).toBe(true);
    expect(final.gaveUp).toBeUndefined();
    // The broker's absence is counted as such, not as records that failed.
    expect(final.transientErrors).toBeGreaterThan(0);
    expect(final.failed).toBe(0);
    expect(final.delivered).toBe(final.sent);
    // The idempotent producer's retries across both restarts wrote each record once.
    expect(await admin.endOffset(topic)).toBe(final.sent);
  }, 420_000);
});
