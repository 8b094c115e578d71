/**
 * `--faults`' model server kill against the real broker and the bench's real model server (KServe's
 * Python model server hosting the frozen model): the plain confluent-kafka loop, served, at a low
 * rate; mid-window the server is killed with SIGKILL and started again on the same ports, the row
 * left alone. The row must stall and come back by itself with 0 lost, and the loss is re-counted
 * from the topics themselves, so the run's own count is checked, not trusted.
 */
import { join } from "node:path";
import { cacheRoot, FIXTURE_SEED, KafkaAdmin, ModelServer, modelsDir, prepareModelServer, productCacheDir, repoRoot, type Product } from "@bench/core";
import { requireBootstrap } from "@bench/core/testing";
import { testBenchContext } from "./bench-context.ts";
import { recount } from "./recount.ts";
import { runServerKill, USER_SERVER_NOT_KILLED, type ServerKillSettings } from "../../src/faults/server-kill.ts";
import { renderServerKills } from "../../src/page/server-kills.ts";
import type { BenchContext } from "../../src/run/context.ts";
import { discoverProducts } from "../../src/run/discover.ts";
import { measureSpeedIndex } from "../../src/run/speed-index.ts";
import { servedRows } from "../../src/serving/rows.ts";
import { killAndRestart } from "../../src/serving/target.ts";

const bootstrap = requireBootstrap();

describe("model server kill: the confluent-kafka row served, its server killed with SIGKILL mid-window and restarted", () => {
  let server: ModelServer;
  let admin: KafkaAdmin;
  let bench: BenchContext;
  let product: Product;

  beforeAll(async () => {
    const log = (line: string): void => console.log(line);
    const prepared = await prepareModelServer({ cacheRoot: cacheRoot(), modelsDir: modelsDir(), log });
    if (!prepared.ok) throw new Error(prepared.reason);
    admin = await KafkaAdmin.connect(bootstrap);
    bench = await testBenchContext(bootstrap, admin, { name: "server-kill-it", speedReference: (await measureSpeedIndex()).recordsPerCpuSecond });
    server = new ModelServer({ python: prepared.python, modelsDir: modelsDir(), model: "risk_mlp", logFile: join(bench.resultsDir, "model-server.log") });
    await server.start();
    bench.modelServer = server;
    bench.killModelServer = (how) => killAndRestart(server, how);
    const found = (await discoverProducts(repoRoot())).find((p) => p.id === "confluent-kafka") as Product;
    product = servedRows([found], "served", () => server.grpcTarget).runnable[0] as Product;
  }, 900_000);
  afterAll(async () => {
    await server?.stop();
    await admin?.close().catch(() => undefined);
  }, 60_000);

  const settings: ServerKillSettings = {
    rate: 1000,
    warmupSec: 6,
    windowSec: 20,
    parallelism: 1,
    seed: FIXTURE_SEED,
    drainTimeoutSec: 300,
    hangSec: 30,
    downSec: 5,
    recoveryLimitSec: 120,
    keepTopics: true,
  };

  it("loses nothing: the row stalls while the server is down, moves again by itself once it is back, and the page says so", async () => {
    const prepared = await product.prepare(
      { repoRoot: repoRoot(), modelsDir: modelsDir(), cacheDir: productCacheDir(cacheRoot(), product), log: () => undefined },
    );
    if (!prepared.ok) throw new Error(prepared.reason);
    const pidBefore = server.rootPids()[0];
    const run = await runServerKill(product, prepared, settings, bench);
    const { ticks, versions: _versions, ...summary } = run;
    console.log(`confluent-kafka server kill: ${JSON.stringify(summary)}`);
    const topics = run.topics as { inputTopic: string; outputTopic: string };
    const recounted = await recount(bootstrap, topics, admin);
    await admin.deleteTopics([topics.inputTopic, topics.outputTopic]).catch(() => undefined);

    expect(run.reason).toBeUndefined();
    expect(run).toMatchObject({ status: "ok", undrained: 0 });
    expect(server.rootPids()[0]).not.toBe(pidBefore);
    expect(run.server!.downSec).toBeGreaterThanOrEqual(settings.downSec);
    // Moving again needs the server back: the stall outlasts the server's downtime.
    expect(run.stalledSec).toBeGreaterThanOrEqual(run.server!.downSec);
    // Left alone, it keeps up with the offered rate again. Recovery dates from the start of the first second that kept up, the stall
    // from the tick that saw the output moved: at most one tick (a second, give or take the ticker's lateness) earlier.
    expect(run.recoverySec).toBeGreaterThanOrEqual(run.stalledSec! - 1.5);
    // The server was sampled beside the row before the kill, and nothing of it while it was down.
    const killedAt = run.server!.killedAtSec;
    expect(ticks.some((t) => t.t < killedAt && (t.server?.cpuPercent ?? 0) > 0)).toBe(true);
    expect(run.tally).toMatchObject({ lost: 0, poisonOut: 0, unreadable: 0 });
    expect(recounted).toEqual({ lost: 0, pills: 0 });
    const page = renderServerKills([run]).join("\n");
    expect(page).toContain("| confluent-kafka |");
    expect(page).toMatch(/\| 0 \| [\d,]+ \| ✓ \|/);
  }, 900_000);

  it("does not touch a server given with --model-server: the run says it was not run here", async () => {
    const { killModelServer: _kill, ...userBench } = bench;
    const prepared = await product.prepare(
      { repoRoot: repoRoot(), modelsDir: modelsDir(), cacheDir: productCacheDir(cacheRoot(), product), log: () => undefined },
    );
    if (!prepared.ok) throw new Error(prepared.reason);
    const run = await runServerKill(product, prepared, settings, userBench);
    expect(run).toMatchObject({ status: "not-run", reason: USER_SERVER_NOT_KILLED });
  }, 300_000);
});
