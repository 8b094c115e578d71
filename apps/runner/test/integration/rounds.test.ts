/**
 * A round against the real broker with the node row: a session of its own at the load share of a
 * given knee, then with --also-at-knee a window at the knee beside it; both tagged with the round
 * and their share, both held to the one audit.
 */
import { FIXTURE_SEED, KafkaAdmin, modelsDir, cacheRoot, repoRoot, type Prepared, type Product } from "@bench/core";
import { testBenchContext } from "./bench-context.ts";
import { discoverProducts } from "../../src/run/discover.ts";
import type { BenchContext, RunSettings } from "../../src/run/measure.ts";
import type { RunResult } from "../../src/results/types.ts";
import { roundAt, type RoundRow } from "../../src/rounds/run-rounds.ts";
import { LOAD_SHARE, rateAtShare } from "../../src/rounds/load-share.ts";

const bootstrap = process.env.BENCH_BOOTSTRAP;

describe("a round at the load share, against the real broker", () => {
  let admin: KafkaAdmin;
  let bench: BenchContext;
  let node: Product;
  let prepared: Prepared & { ok: true };

  beforeAll(async () => {
    if (!bootstrap) throw new Error("BENCH_BOOTSTRAP is not set: run through scripts/test.sh, which starts a broker");
    admin = await KafkaAdmin.connect(bootstrap);
    bench = await testBenchContext(bootstrap, admin, { name: "rounds", speedReference: 0 });
    node = (await discoverProducts(repoRoot())).find((p) => p.id === "node") as Product;
    const p = await node.prepare({ repoRoot: repoRoot(), modelsDir: modelsDir(), cacheDir: cacheRoot(), log: () => undefined });
    if (!p.ok) throw new Error(p.reason);
    prepared = p;
  }, 120_000);
  afterAll(async () => admin?.close());

  const settings: RunSettings = {
    rate: 0, warmupSec: 3, settleCapSec: 30, windowSec: 8, parallelism: 2, seed: FIXTURE_SEED, drainTimeoutSec: 60, hangSec: 30,
    windowRule: { minSec: 5, maxSec: 8, relHalfWidth: 0.02 },
  };

  it("measures the share's window first, then the knee's, each tagged, both audited with nothing lost", async () => {
    const knee = 3000;
    const row: RoundRow = { product: node, prepared, settings, knee, rate: rateAtShare(knee, LOAD_SHARE) };
    const runs: RunResult[] = [];
    const { audited } = await roundAt(row, 2, bench, (run) => runs.push(run), { profileSec: 0, alsoAtKnee: true });
    await audited;
    expect(runs.map((r) => [r.round, r.loadShare, r.settings.offeredRate])).toEqual([
      [2, LOAD_SHARE, 2100],
      [2, 1, 3000],
    ]);
    for (const run of runs) {
      expect(run.reason).toBeUndefined();
      expect(run.status).toBe("ok");
      expect(run.sweepPurpose).toBe("round");
      expect(run.throughput!.regime).toBe("keep-up");
      expect(run.delivery!.lost).toBe(0);
      expect(run.delivery!.duplicated).toBe(0);
    }
  }, 240_000);
});
