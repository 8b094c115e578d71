/**
 * The overload scenario against the real broker: the node row at a base rate, twice that for a
 * short burst, then back until the backlog is worked off; drain and audit. The loss is re-counted
 * from the topics themselves, and the sequence numbers of the three gendata runs must join up
 * (every id of the input topic distinct and dense).
 */
import { cacheRoot, FIXTURE_SEED, KafkaAdmin, modelsDir, productCacheDir, repoRoot, type Product } from "@bench/core";
import { requireBootstrap } from "@bench/core/testing";
import { testBenchContext } from "./bench-context.ts";
import { recount } from "./recount.ts";
import { runOverload, type OverloadSettings } from "../../src/faults/overload.ts";
import { renderOverloads } from "../../src/page/overloads.ts";
import type { BenchContext } from "../../src/run/context.ts";
import { discoverProducts } from "../../src/run/discover.ts";
import { measureSpeedIndex } from "../../src/run/speed-index.ts";

const bootstrap = requireBootstrap();

describe("overload: twice the base rate for a burst, then back", () => {
  let admin: KafkaAdmin;
  let bench: BenchContext;
  let products: Product[];

  beforeAll(async () => {
    admin = await KafkaAdmin.connect(bootstrap);
    products = await discoverProducts(repoRoot());
    bench = await testBenchContext(bootstrap, admin, { name: "overload-it", speedReference: (await measureSpeedIndex()).recordsPerCpuSecond });
  }, 60_000);
  afterAll(async () => admin?.close());

  const settings: OverloadSettings = {
    rate: 2000,
    warmupSec: 6,
    windowSec: 20,
    parallelism: 1,
    seed: FIXTURE_SEED,
    drainTimeoutSec: 300,
    hangSec: 30,
    baseFrom: "rate",
    burstSec: 10,
    workOffLimitSec: 60,
    keepTopics: true,
  };

  it("node: stays up, works the burst's backlog off, loses nothing, and the page says so", async () => {
    const product = products.find((p) => p.id === "node") as Product;
    const prepared = await product.prepare(
      { repoRoot: repoRoot(), modelsDir: modelsDir(), cacheDir: productCacheDir(cacheRoot(), product), log: () => undefined },
    );
    if (!prepared.ok) throw new Error(prepared.reason);
    const run = await runOverload(product, prepared, settings, bench);
    const { ticks, versions: _versions, ...summary } = run;
    console.log(`node overload: ${JSON.stringify(summary)}`);
    const topics = run.topics as { inputTopic: string; outputTopic: string };
    const recounted = await recount(bootstrap, topics, admin);
    await admin.deleteTopics([topics.inputTopic, topics.outputTopic]).catch(() => undefined);

    expect(run.reason).toBeUndefined();
    expect(run).toMatchObject({ status: "ok", stayedUp: true, undrained: 0 });
    expect(run.burst!.toSec - run.burst!.fromSec).toBeGreaterThanOrEqual(settings.burstSec!);
    expect(run.burstOfferedPerSec).toBeGreaterThan(settings.rate * 1.5);
    expect(run.peakMemMb).toBeGreaterThan(0);
    expect(run.workedOffSec).toBeDefined();
    expect(run.tally).toMatchObject({ lost: 0, poisonOut: 0, unreadable: 0 });
    // The three gendata runs' records join up: every produced id came out, once at least.
    expect(run.tally!.produced).toBe(ticks[ticks.length - 1]!.inputEnd);
    expect(recounted).toEqual({ lost: 0, pills: 0 });
    expect(renderOverloads([run]).join("\n")).toContain("| node |");
  }, 600_000);
});
