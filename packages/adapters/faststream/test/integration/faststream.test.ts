/**
 * The faststream row end to end against a real broker: the 256 fixture records in, 256 scored
 * records out with the reference risk, the group's offset committed, nothing left running.
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
import { faststream } from "../../src/product.ts";

const bootstrap = process.env.BENCH_BOOTSTRAP;
if (!bootstrap) throw new Error("BENCH_BOOTSTRAP is not set: point it at a Kafka broker, e.g. BENCH_BOOTSTRAP=127.0.0.1:19092");

const cacheDir = join(cacheRoot(), "faststream");
const log = (line: string): void => console.log(line);

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
    await new Promise((r) => setTimeout(r, 250));
  }
  return check();
}

describe("faststream adapter", () => {
  const suffix = `${Date.now()}-${process.pid}`;
  const inputTopic = `faststream-it-in-${suffix}`;
  const outputTopic = `faststream-it-out-${suffix}`;
  const groupId = `faststream-it-${suffix}`;
  let admin: KafkaAdmin;
  let running: RunningProduct | undefined;

  beforeAll(async () => {
    admin = await KafkaAdmin.connect(bootstrap);
  });

  afterAll(async () => {
    await running?.stop();
    await admin.deleteTopics([inputTopic, outputTopic]);
    await admin.close();
  });

  it("scores every fixture record with the reference risk, at least once", async () => {
    const prep = await faststream.prepare({ repoRoot: repoRoot(), modelsDir: modelsDir(), cacheDir, log });
    if (!prep.ok) throw new Error(`prepare failed: ${prep.reason}`);
    expect(Object.keys(prep.versions)).toEqual(expect.arrayContaining(["faststream", "python", "torch"]));
    log(`versions ${JSON.stringify(prep.versions)}`);

    await admin.createTopics([{ name: inputTopic }, { name: outputTopic }]);
    running = await faststream.start({
      bootstrap,
      inputTopic,
      outputTopic,
      groupId,
      parallelism: 1,
      runDir: mkdtempSync(join(tmpdir(), "faststream-it-")),
      repoRoot: repoRoot(),
      modelsDir: modelsDir(),
      cacheDir,
      log,
    });
    const roots = running.rootPids();
    expect(roots.length).toBeGreaterThan(0);

    const fixtures = loadFixtures(fixturesDir());
    await produceMessages(
      bootstrap,
      inputTopic,
      fixtures.map((f) => ({ key: f.record.partition_key, value: JSON.stringify(f.record) })),
    );

    const scored = new Map<string, OutputRecord>();
    await readTopic(
      bootstrap,
      outputTopic,
      (batch) => {
        for (const m of batch) {
          const out = JSON.parse(m.value.toString("utf8")) as OutputRecord;
          scored.set(out.event_id, out);
        }
      },
      { stopAt: fixtures.length, idleMs: 60_000, timeoutMs: 120_000 },
    );
    expect(scored.size).toBe(fixtures.length);
    for (const f of fixtures) {
      const out = scored.get(f.record.event_id);
      expect(out).toBeDefined();
      expect(out?.ts_ms).toBe(f.record.ts_ms);
      expect(Math.abs((out?.risk ?? Number.NaN) - f.risk)).toBeLessThanOrEqual(1e-5);
    }

    const committed = await waitFor(async () => (await admin.committedOffset(groupId, inputTopic)) >= fixtures.length, 30_000);
    expect(await admin.committedOffset(groupId, inputTopic)).toBe(fixtures.length);
    expect(committed).toBe(true);

    await running.stop();
    running = undefined;
    for (const pid of roots) expect(alive(pid)).toBe(false);
  }, 900_000);
});
