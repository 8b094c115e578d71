/**
 * `--profile` end to end on the real broker: the node row (V8's profiler over the inspector)
 * and the quix row (py-spy), each measured at a low rate and then profiled with gendata still
 * feeding. The model call must show: above zero, under the whole. Quix is the Python row because
 * it scores one record at a time, so its model call is a large share even at a low rate;
 * faststream scores batches, and at a test's rate its model call is too rare for a few seconds
 * of samples to be sure to catch.
 */
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  cacheRoot,
  FIXTURE_SEED,
  fixturesDir,
  KafkaAdmin,
  loadFixtures,
  modelsDir,
  productCacheDir,
  PROFILE_CATEGORIES,
  ReferenceModel,
  repoRoot,
  type Product,
} from "@bench/core";
import { requireBootstrap } from "@bench/core/testing";
import { testBenchContext } from "./bench-context.ts";
import { PY_SPY_RATE } from "../../src/profile/pyspy.ts";
import { prepareProfilers } from "../../src/profile/window.ts";
import { discoverProducts } from "../../src/run/discover.ts";
import { measureRun, type BenchContext } from "../../src/run/measure.ts";
import { measureSpeedIndex } from "../../src/run/speed-index.ts";

const bootstrap = requireBootstrap();
/** V8's sampling interval is 1 ms (profile/v8-inspector.mjs); its idle samples are dropped. */
const V8_SAMPLES_PER_SEC = 1000;

describe("bench --profile on the real broker", () => {
  let admin: KafkaAdmin;
  let bench: BenchContext;
  let products: Product[];

  beforeAll(async () => {
    admin = await KafkaAdmin.connect(bootstrap);
    products = await discoverProducts(repoRoot());
    bench = await testBenchContext(bootstrap, admin, { name: "profile-it", speedReference: (await measureSpeedIndex()).recordsPerCpuSecond });
    await prepareProfilers(() => undefined);
  }, 300_000);
  afterAll(async () => admin?.close());

  const settings = {
    rate: 1000,
    warmupSec: 3,
    settleCapSec: 30,
    windowSec: 5,
    parallelism: 2,
    seed: FIXTURE_SEED,
    drainTimeoutSec: 60,
    hangSec: 30,
    profileSec: 6,
  };

  for (const [id, profiler] of [["node", "v8"], ["quix", "py-spy"]] as const) {
    it(`${id}: a breakdown from ${profiler} with the model call's share above zero and under the whole`, async () => {
      const product = products.find((p) => p.id === id) as Product;
      const prepared = await product.prepare(
        { repoRoot: repoRoot(), modelsDir: modelsDir(), cacheDir: productCacheDir(cacheRoot(), product), log: () => undefined },
      );
      if (!prepared.ok) throw new Error(prepared.reason);
      const run = await measureRun(product, prepared, settings, bench);
      expect(run.status).toBe("ok");
      const p = run.profile!;
      expect(p.error).toBeUndefined();
      const main = p.processes.find((q) => q.profiler === profiler)!;
      // The profiler sampled the busiest (interpreter) thread at least as often as the CPU /proc
      // measured for it allows, and never more often than its rate over the phase's threads: both
      // counts come from this run, never one that a faster or slower machine would miss. No upper
      // bound from /proc's CPU: py-spy's idle test reads a thread that waits for a CPU as running,
      // and on a contended CI machine quix's main thread gave 280 samples for 7 % of a core.
      const hz = profiler === "v8" ? V8_SAMPLES_PER_SEC : PY_SPY_RATE;
      const threads = main.threads ?? [];
      const busiest = Math.max(...threads.map((t) => t.cpuPercent));
      const expected = (busiest / 100) * settings.profileSec * hz;
      expect(main.samples).toBeGreaterThan(0);
      expect(main.samples).toBeGreaterThanOrEqual(expected / 4);
      expect(main.samples).toBeLessThanOrEqual(settings.profileSec * hz * Math.max(1, threads.length) * 1.2 + 10);
      expect(PROFILE_CATEGORIES.reduce((a, c) => a + p.shares[c], 0)).toBeCloseTo(1, 9);
      expect(p.shares.model).toBeGreaterThan(0);
      expect(p.shares.model).toBeLessThan(1);
      expect(p.microsPerRecord.model).toBeGreaterThan(0);
      expect(p.microsPerRecord.model).toBeLessThan(p.overhead.cpuMicrosPerRecordProfiled);
      // the measured window never overlaps the profiling phase
      const phases = run.ticks.map((t) => t.phase);
      expect(phases.lastIndexOf("window")).toBeLessThan(phases.indexOf("profile"));
      expect(phases.filter((ph) => ph === "profile")).toHaveLength(settings.profileSec);
      expect(existsSync(join(bench.resultsDir, p.files!.speedscope))).toBe(true);
      const flame = JSON.parse(readFileSync(join(bench.resultsDir, p.files!.speedscope), "utf8")) as { profiles: Array<{ type: string; samples: number[][] }> };
      expect(flame.profiles[0]!.type).toBe("sampled");
      expect(flame.profiles[0]!.samples.length).toBeGreaterThan(0);
      process.stderr.write(
        `${id} profile: ${PROFILE_CATEGORIES.map((c) => `${c} ${(p.shares[c] * 100).toFixed(1)}%`).join(", ")}; µs/record profiled ` +
          `${p.overhead.cpuMicrosPerRecordProfiled.toFixed(1)} vs window ${p.overhead.cpuMicrosPerRecordWindow.toFixed(1)}; profiler ` +
          `${p.overhead.profilerCpuPercent.toFixed(1)}% of a core\n`,
      );
    }, 400_000);
  }
});
