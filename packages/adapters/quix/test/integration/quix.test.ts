/**
 * The quix app against the dev broker: the 256 fixture records in, 256 scored records out
 * with the reference risk, the group's committed offset at the end, a clean stop.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cacheRoot, fixturesDir, KafkaAdmin, loadFixtures, modelsDir, produceMessages, readTopic, repoRoot, type OutputRecord, type RunningProduct } from "@bench/core";
import { quix } from "../../src/product.ts";

const bootstrap = process.env.BENCH_BOOTSTRAP;
if (!bootstrap) throw new Error("BENCH_BOOTSTRAP is not set: point it at a Kafka broker, e.g. BENCH_BOOTSTRAP=127.0.0.1:19092");

const fixtures = loadFixtures(fixturesDir());
const prefix = `quix-it-${process.pid}-${Date.now()}`;
const inputTopic = `${prefix}-in`;
const outputTopic = `${prefix}-out`;
const groupId = `${prefix}-group`;
const cacheDir = join(cacheRoot(), "quix");
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
  return false;
}

describe("quix adapter", () => {
  let admin: KafkaAdmin;
  let running: RunningProduct | undefined;
  let runDir: string | undefined;

  beforeAll(async () => {
    admin = await KafkaAdmin.connect(bootstrap);
  });

  afterAll(async () => {
    await running?.stop();
    await admin.deleteTopics([inputTopic, outputTopic]);
    await admin.close();
    if (runDir) rmSync(runDir, { recursive: true, force: true });
  });

  it("prepares its pinned environment", async () => {
    const prep = await quix.prepare({ repoRoot: repoRoot(), modelsDir: modelsDir(), cacheDir, log });
    if (!prep.ok) throw new Error(prep.reason);
    expect(prep.versions.quix).toBe("3.28.1");
    expect(prep.versions.python).toMatch(/^3\.11\./);
    expect(prep.versions.torch).toMatch(/^\d+\.\d+/);
  }, 900_000);

  it("scores every fixture record with the reference risk and commits, then stops cleanly", async () => {
    await admin.createTopics([{ name: inputTopic }, { name: outputTopic, config: { "message.timestamp.type": "LogAppendTime" } }]);
    runDir = mkdtempSync(join(tmpdir(), "quix-it-"));
    running = await quix.start({
      bootstrap,
      inputTopic,
      outputTopic,
      groupId,
      parallelism: 1,
      runDir,
      repoRoot: repoRoot(),
      modelsDir: modelsDir(),
      cacheDir,
      log,
    });
    const roots = running.rootPids();
    expect(roots.length).toBeGreaterThan(0);
    expect(roots.every(alive)).toBe(true);
    expect(running.consumed.kind).toBe("group-offsets");

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
      { idleMs: 60_000, timeoutMs: 120_000, stopAt: fixtures.length },
    );
    expect(scored.size).toBe(fixtures.length);
    for (const f of fixtures) {
      const out = scored.get(f.record.event_id);
      expect(out).toBeDefined();
      expect(out?.ts_ms).toBe(f.record.ts_ms);
      expect(Math.abs((out?.risk ?? Number.NaN) - f.risk)).toBeLessThan(1e-5);
    }

    const committed = await waitFor(async () => (await admin.committedOffset(groupId, inputTopic)) >= fixtures.length, 30_000);
    expect(committed).toBe(true);
    expect(await admin.committedOffset(groupId, inputTopic)).toBe(fixtures.length);
    expect(await running.internalTopics?.()).toEqual([]);

    await running.stop();
    // quixstreams handles SIGTERM: last checkpoint committed, exit code 0.
    expect(await running.exited).toEqual({ code: 0, signal: null });
    expect(roots.filter(alive)).toEqual([]);
    running = undefined;
  }, 240_000);
});
