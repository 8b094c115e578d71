/**
 * The broker-restart scenario against a broker this test starts itself (the shared one of the
 * suite must not be killed under the other tests): the node row at a low rate, the broker
 * stopped mid-window (SIGKILL, then in a second run a clean stop) and started again on the
 * same port and data. The loss is
 * re-counted from the topics themselves, so the run's own count is checked, not trusted.
 */
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cacheRoot, FIXTURE_SEED, KafkaAdmin, modelsDir, productCacheDir, repoRoot, type Product } from "@bench/core";
import { testBenchContext } from "./bench-context.ts";
import { recount } from "./recount.ts";
import { KafkaBroker } from "../../src/broker/kafka-broker.ts";
import { allowBrokerRestart } from "../../src/broker/restartable.ts";
import { runBrokerRestart, type BrokerRestartSettings } from "../../src/faults/broker-restart.ts";
import { renderBrokerRestarts } from "../../src/page/broker-restarts.ts";
import type { BenchContext } from "../../src/run/context.ts";
import { discoverProducts } from "../../src/run/discover.ts";
import { measureSpeedIndex } from "../../src/run/speed-index.ts";

describe("broker restart: the broker stopped mid-window (SIGKILL, then a clean stop) and started again, against a broker of this test's own", () => {
  let broker: KafkaBroker;
  let admin: KafkaAdmin;
  let bench: BenchContext;
  let products: Product[];

  beforeAll(async () => {
    const kafkaCache = join(cacheRoot(), "kafka");
    mkdirSync(kafkaCache, { recursive: true });
    broker = await KafkaBroker.start(
      { cacheDir: kafkaCache, logFile: join(mkdtempSync(join(tmpdir(), "broker-restart-it-")), "broker.log"), log: () => undefined },
    );
    admin = await KafkaAdmin.connect(broker.bootstrap);
    products = await discoverProducts(repoRoot());
    bench = await testBenchContext(broker.bootstrap, admin, { name: "broker-restart-it", speedReference: (await measureSpeedIndex()).recordsPerCpuSecond });
    allowBrokerRestart(bench, broker);
  }, 180_000);
  afterAll(async () => {
    await admin?.close().catch(() => undefined);
    await broker?.stop();
  }, 60_000);

  const settings: BrokerRestartSettings = {
    rate: 1000,
    warmupSec: 6,
    windowSec: 20,
    parallelism: 1,
    seed: FIXTURE_SEED,
    drainTimeoutSec: 300,
    hangSec: 30,
    hard: true,
    downSec: 5,
    recoveryLimitSec: 120,
    keepTopics: true,
  };

  // hard: SIGKILL, the broker recovers its logs on start; clean: a controlled shutdown.
  it.each([["hard", true], ["clean", false]] as const)("node, %s: loses nothing, recovers by itself, and the page says so", async (variant, hard) => {
    const product = products.find((p) => p.id === "node") as Product;
    const prepared = await product.prepare(
      { repoRoot: repoRoot(), modelsDir: modelsDir(), cacheDir: productCacheDir(cacheRoot(), product), log: () => undefined },
    );
    if (!prepared.ok) throw new Error(prepared.reason);
    const pidBefore = broker.pid;
    const run = await runBrokerRestart(product, prepared, { ...settings, hard }, bench);
    const { ticks, versions: _versions, ...summary } = run;
    console.log(`node broker restart (${variant}): ${JSON.stringify(summary)}; ${ticks.filter((t) => t.noReading).length} ticks with no reading`);
    const topics = run.topics as { inputTopic: string; outputTopic: string };
    const recounted = await recount(broker.bootstrap, topics, admin);
    await admin.deleteTopics([topics.inputTopic, topics.outputTopic]).catch(() => undefined);

    expect(run.reason).toBeUndefined();
    expect(run).toMatchObject({ status: "ok", variant, undrained: 0, recovered: "by-itself" });
    expect(broker.pid).not.toBe(pidBefore);
    expect(bench.brokerPid).toBe(broker.pid);
    expect(ticks.some((t) => t.noReading)).toBe(true);
    expect(run.broker!.downSec).toBeGreaterThanOrEqual(settings.downSec);
    expect(run.recoverySec).toBeGreaterThan(0);
    expect(run.tally).toMatchObject({ lost: 0, poisonOut: 0, unreadable: 0 });
    expect(recounted).toEqual({ lost: 0, pills: 0 });
    const page = renderBrokerRestarts([run]).join("\n");
    expect(page).toContain(`| node | ${variant} |`);
    expect(page).toContain("by itself");
  }, 900_000);
});
