/**
 * The risingwave row end to end against a real broker and a real RisingWave: the 256 fixture
 * records in, 256 scored records out with the reference risk, RisingWave's own source offset
 * (the engine counter) at 256, nothing left running.
 *
 * Needs RISINGWAVE_BIN (a risingwave binary, started here in single-node mode) or
 * RISINGWAVE_URL (a running server). No registry reachable from the bench's machines ships the
 * server, so without either the end-to-end test is reported as skipped, its name saying why.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  cacheRoot,
  fixturesDir,
  KafkaAdmin,
  loadFixtures,
  modelsDir,
  produceMessages,
  readTopic,
  repoRoot,
  type OutputRecord,
  type RunningProduct,
} from "@bench/core";
import { locateRisingWave } from "../../src/locate.ts";
import { risingwave } from "../../src/product.ts";

const bootstrap = process.env.BENCH_BOOTSTRAP;
if (!bootstrap) throw new Error("BENCH_BOOTSTRAP is not set: point it at a Kafka broker, e.g. BENCH_BOOTSTRAP=127.0.0.1:19092");

const cacheDir = join(cacheRoot(), "risingwave");
const log = (line: string): void => console.log(line);
const where = locateRisingWave(process.env);

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 500));
  }
  return check();
}

describe("risingwave adapter", () => {
  test("prepare() agrees with the environment: skips with the reason, or names the server's version", async () => {
    const prep = await risingwave.prepare({ repoRoot: repoRoot(), modelsDir: modelsDir(), cacheDir, log });
    if (where.kind === "none") {
      expect(prep).toEqual({ ok: false, reason: where.reason });
    } else {
      if (!prep.ok) throw new Error(`prepare failed: ${prep.reason}`);
      expect(Object.keys(prep.versions)).toEqual(expect.arrayContaining(["risingwave", "python", "torch", "arrow-udf"]));
      log(`versions ${JSON.stringify(prep.versions)}`);
    }
  }, 900_000);

  const endToEnd = where.kind === "none" ? test.skip : test;
  const title =
    where.kind === "none"
      ? `end to end SKIPPED: ${where.reason}`
      : "end to end: scores every fixture record with the reference risk; RisingWave's source offset reaches 256; stop() leaves nothing running";

  endToEnd(
    title,
    async () => {
      const suffix = `${Date.now()}-${process.pid}`;
      const inputTopic = `risingwave-it-in-${suffix}`;
      const outputTopic = `risingwave-it-out-${suffix}`;
      const admin = await KafkaAdmin.connect(bootstrap);
      let running: RunningProduct | undefined;
      try {
        const prep = await risingwave.prepare({ repoRoot: repoRoot(), modelsDir: modelsDir(), cacheDir, log });
        if (!prep.ok) throw new Error(`prepare failed: ${prep.reason}`);

        await admin.createTopics([{ name: inputTopic }, { name: outputTopic, config: { "message.timestamp.type": "LogAppendTime" } }]);
        running = await risingwave.start({
          bootstrap,
          inputTopic,
          outputTopic,
          groupId: `risingwave-it-${suffix}`,
          parallelism: 2,
          runDir: mkdtempSync(join(tmpdir(), "risingwave-it-")),
          repoRoot: repoRoot(),
          modelsDir: modelsDir(),
          cacheDir,
          log,
        });
        const roots = running.rootPids();
        expect(roots.length).toBeGreaterThanOrEqual(where.kind === "binary" ? 2 : 1);
        expect(running.consumed.kind).toBe("engine-counter");

        const fixtures = loadFixtures(fixturesDir());
        await produceMessages(
          bootstrap,
          inputTopic,
          fixtures.map((f) => ({ key: f.record.partition_key, value: JSON.stringify(f.record) })),
        );

        // At-least-once: a replay may repeat records, so read until every id has been seen.
        const scored = new Map<string, OutputRecord>();
        let fromOffset = 0;
        const deadline = Date.now() + 240_000;
        while (scored.size < fixtures.length && Date.now() < deadline) {
          fromOffset += await readTopic(
            bootstrap,
            outputTopic,
            (batch) => {
              for (const m of batch) {
                const out = JSON.parse(m.value.toString("utf8")) as OutputRecord;
                scored.set(out.event_id, out);
              }
            },
            { fromOffset, stopAt: fixtures.length - scored.size, idleMs: 30_000, timeoutMs: 60_000 },
          );
        }
        if (scored.size < fixtures.length) log(running.logTail(60));
        expect(scored.size).toBe(fixtures.length);
        for (const f of fixtures) {
          const out = scored.get(f.record.event_id);
          expect(out).toBeDefined();
          expect(out?.ts_ms).toBe(f.record.ts_ms);
          expect(Math.abs((out?.risk ?? Number.NaN) - f.risk)).toBeLessThanOrEqual(1e-5);
        }

        const counter = running.consumed;
        if (counter.kind !== "engine-counter") throw new Error("expected an engine counter");
        await waitFor(async () => (await counter.read()) >= fixtures.length, 60_000);
        expect(await counter.read()).toBe(fixtures.length);

        await running.stop();
        running = undefined;
        for (const pid of roots) expect(alive(pid)).toBe(false);
      } finally {
        await running?.stop();
        await admin.deleteTopics([inputTopic, outputTopic]);
        await admin.close();
      }
    },
    900_000,
  );
});
