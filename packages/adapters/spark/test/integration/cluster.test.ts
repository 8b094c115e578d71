/**
 * The spark row on a Spark cluster: a standalone master and one worker (1 core, 1 GB) started on
 * loopback from what the pyspark package ships, the row pointed at it with BENCH_SPARK_MASTER.
 * The fixtures must come out scored right, and the executor CPU the engine reports (its JVMCPU
 * source's jvmCpuTime, through the StatsD sink) must agree with /proc's reading of the same executor JVM
 * within 10 %. Master and worker are stopped after, and nothing of the row outlives its stop.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { cacheRoot, FIXTURE_COUNT, freePort, JAVA_HOME, ManagedProcess } from "@bench/core";
import { alive, expectGatePassed, prepareOrThrow, requireBootstrap, scoreFixturesThroughProduct, type LiveFixtureRun } from "@bench/core/testing";
import { spark } from "../../src/product.ts";

const bootstrap = requireBootstrap();
const CLOCK_TICKS = 100;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** CPU seconds of one process itself (utime + stime; not its children). */
function ownCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/** Executor JVMs on this machine (the worker forks CoarseGrainedExecutorBackend). */
function executorPids(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, "utf8").includes("org.apache.spark.executor.CoarseGrainedExecutorBackend")) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

async function startDaemon(sparkClass: string, name: string, args: string[], ready: RegExp, dir: string): Promise<ManagedProcess> {
  const proc = new ManagedProcess(
    { command: sparkClass, args, cwd: dir, env: { JAVA_HOME, SPARK_LOG_DIR: dir, SPARK_WORKER_DIR: join(dir, "work") }, logFile: join(dir, `${name}.log`) },
  );
  try {
    await proc.waitForLine(ready, 180_000);
  } catch (error) {
    await proc.stop();
    throw new Error(`${name}: ${(error as Error).message}\n${proc.logTail()}`);
  }
  return proc;
}

describe("spark on a standalone cluster", () => {
  const dir = mkdtempSync(join(tmpdir(), "spark-cluster-"));
  mkdirSync(join(dir, "work"));
  let master: ManagedProcess | undefined;
  let worker: ManagedProcess | undefined;
  let run: LiveFixtureRun | undefined;

  afterAll(async () => {
    await run?.stop();
    await worker?.stop();
    await master?.stop();
    delete process.env.BENCH_SPARK_MASTER;
    rmSync(dir, { recursive: true, force: true });
  });

  it("scores the fixtures on the cluster's executor, reports its CPU as /proc does, and leaves nothing running", async () => {
    const cacheDir = join(cacheRoot(), "spark");
    const prepared = await prepareOrThrow(spark, { cacheDir, log: () => undefined });
    const sparkClass = join(dirname(dirname(prepared.found.python)), "lib", "python3.11", "site-packages", "pyspark", "bin", "spark-class");
    const [port, masterUi, workerUi] = [await freePort(), await freePort(), await freePort()];
    master = await startDaemon(
      sparkClass,
      "master",
      ["org.apache.spark.deploy.master.Master", "--host", "127.0.0.1", "--port", String(port), "--webui-port", String(masterUi)],
      /I have been elected leader/,
      dir,
    );
    worker = await startDaemon(
      sparkClass,
      "worker",
      [
        "org.apache.spark.deploy.worker.Worker",
        `spark://127.0.0.1:${port}`,
        "--host",
        "127.0.0.1",
        "--cores",
        "1",
        "--memory",
        "1g",
        "--webui-port",
        String(workerUi),
        "--work-dir",
        join(dir, "work"),
      ],
      /Successfully registered with master/,
      dir,
    );

    process.env.BENCH_SPARK_MASTER = `spark://127.0.0.1:${port}`;
    const before = new Set(executorPids());
    run = await scoreFixturesThroughProduct(
      spark,
      { bootstrap, parallelism: 1, cacheDir, topicPrefix: "spark-cluster-it", keepRunning: true, readTimeoutMs: 300_000, consumedTimeoutMs: 60_000 },
    );
    expectGatePassed(run);
    expect(run.consumed).toBe(FIXTURE_COUNT);
    expect(readFileSync(join(run.runDir, "spark.log"), "utf8")).toContain(`master=spark://127.0.0.1:${port}`);

    // The executor is the worker's child, outside the row's process tree: the engine reports it.
    const executors = executorPids().filter((p) => !before.has(p));
    expect(executors).toHaveLength(1);
    const executor = executors[0] as number;
    expect(run.rootPids.some((root) => root === executor)).toBe(false);
    const remote = run.running.remoteResources;
    if (!remote) throw new Error("no remoteResources on a cluster run");
    expect(remote.describe).toContain("jvmCpuTime");
    // The sink reports every second: take /proc's reading right after a fresh report arrives.
    let last = (await remote.read()).cpuSeconds;
    let reported = last;
    let procSeconds = 0;
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      await sleep(20);
      reported = (await remote.read()).cpuSeconds;
      if (reported !== last && last > 0) {
        procSeconds = ownCpuSeconds(executor);
        break;
      }
      last = reported;
    }
    if (procSeconds === 0) throw new Error(
      `no fresh executor CPU report within 30 s (last ${reported} s); the StatsD listener's state: ${JSON.stringify(remote)}`,
    );
    console.log(`executor ${executor} CPU: Spark's jvmCpuTime ${reported.toFixed(2)} s, /proc utime+stime ${procSeconds.toFixed(2)} s`);
    expect(Math.abs(reported - procSeconds) / procSeconds).toBeLessThanOrEqual(0.1);
    expect((await remote.read()).rssBytes).toBeGreaterThan(0);

    const stopped = await run.stop();
    expect(stopped.aliveAfterStop).toEqual([]);
    // The master ends the application's executor once the driver is gone.
    const gone = Date.now() + 60_000;
    while (alive(executor) && Date.now() < gone) await sleep(500);
    expect(alive(executor)).toBe(false);

    await worker.stop();
    await master.stop();
    expect([master.pid, worker.pid].filter(alive)).toEqual([]);
  }, 900_000);
});
