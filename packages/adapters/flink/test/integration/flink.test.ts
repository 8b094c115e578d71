/**
 * The PyFlink job against the dev broker at parallelism 2 (so the exchange and two Python
 * workers are exercised): the 256 fixture records in, 256 scored records out with the
 * reference risk, the group's committed offset (checkpoint commits) at the end, and a clean
 * stop that leaves no driver, JVM or Python worker behind.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cacheRoot, fixturesDir, KafkaAdmin, loadFixtures, modelsDir, produceMessages, readTopic, repoRoot, type OutputRecord, type RunningProduct } from "@bench/core";
import { flink } from "../../src/product.ts";

const bootstrap = process.env.BENCH_BOOTSTRAP;
if (!bootstrap) throw new Error("BENCH_BOOTSTRAP is not set: point it at a Kafka broker, e.g. BENCH_BOOTSTRAP=127.0.0.1:19092");

const fixtures = loadFixtures(fixturesDir());
const prefix = `flink-it-${process.pid}-${Date.now()}`;
const inputTopic = `${prefix}-in`;
const outputTopic = `${prefix}-out`;
const groupId = `${prefix}-group`;
const cacheDir = join(cacheRoot(), "flink");
const log = (line: string): void => console.log(line);

/** Alive and not a zombie waiting for init to reap it. */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

/** Every process below `roots`, by parent pid over /proc (threads of the JVM fork the workers). */
function descendants(roots: number[]): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone
    }
  }
  const out: number[] = [];
  const queue = [...roots];
  while (queue.length > 0) {
    const kids = children.get(queue.shift() as number) ?? [];
    out.push(...kids);
    queue.push(...kids);
  }
  return out;
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

describe("flink adapter", () => {
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
    const prep = await flink.prepare({ repoRoot: repoRoot(), modelsDir: modelsDir(), cacheDir, log });
    if (!prep.ok) throw new Error(prep.reason);
    expect(prep.versions.flink).toBe("2.2.1");
    expect(prep.versions["flink-sql-connector-kafka"]).toBe("5.0.0-2.2");
    expect(prep.versions.java).toMatch(/^17\./);
    expect(prep.versions.python).toMatch(/^3\.11\./);
    expect(prep.versions.torch).toMatch(/^\d+\.\d+/);
  }, 900_000);

  it("scores every fixture record with the reference risk and commits, then stops cleanly", async () => {
    await admin.createTopics([{ name: inputTopic }, { name: outputTopic, config: { "message.timestamp.type": "LogAppendTime" } }]);
    runDir = mkdtempSync(join(tmpdir(), "flink-it-"));
    running = await flink.start({
      bootstrap,
      inputTopic,
      outputTopic,
      groupId,
      parallelism: 2,
      runDir,
      repoRoot: repoRoot(),
      modelsDir: modelsDir(),
      cacheDir,
      log,
    });
    const roots = running.rootPids();
    // The JVM and the Python workers: found now so the stop can be checked against all of them.
    const tree = (): number[] => descendants(roots);
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

    const processes = tree();
    // Driver, JVM and one Python worker per slot (at least).
    expect(processes.length).toBeGreaterThanOrEqual(3);
    await running.stop();
    // The driver catches SIGTERM, the JVM closes its MiniCluster: exit code 0.
    expect(await running.exited).toEqual({ code: 0, signal: null });
    expect(roots.filter(alive)).toEqual([]);
    expect(processes.filter(alive)).toEqual([]);
    running = undefined;
  }, 400_000);
});
