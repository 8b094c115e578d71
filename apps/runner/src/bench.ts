/**
 * The main job: prepare each chosen product, run it once at its offered rate, write results
 * after every run (so an interruption keeps what was measured), render the page at the end.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  cacheRoot,
  FIXTURE_SEED,
  fixturesDir,
  KafkaAdmin,
  loadFixtures,
  modelsDir,
  ReferenceModel,
  repoRoot,
  type Product,
} from "@bench/core";
import { KafkaBroker } from "./broker/kafka-broker.ts";
import { describeHost } from "./host.ts";
import { renderPage } from "./page/render.ts";
import { writeHtmlPage } from "./page/html/command.ts";
import { writeArrowFiles } from "./results/arrow.ts";
import { RunProgress } from "./progress.ts";
import { measureRun, productCacheDir, type RunSettings } from "./run/measure.ts";
import { discoverProducts } from "./run/discover.ts";
import { writeResults } from "./results/files.ts";
import { DEFAULT_SWEEP } from "./sweep/knee.ts";
import { sweepProduct } from "./sweep/run-sweep.ts";
import type { BenchResults, RunResult } from "./results/types.ts";

export interface BenchOptions {
  products?: string;
  rate: { byProduct: Map<string, number>; fallback: number | undefined };
  warmup: number;
  window: number;
  parallelism: number;
  bootstrap?: string;
  results?: string;
  drainTimeout: number;
  hang: number;
  list?: boolean;
  sweep?: boolean;
  sweepStart: number;
  sweepMax: number;
  sweepFactor: number;
}

const log = (line: string): void => void process.stderr.write(`${line}\n`);

function choose(all: Product[], spec: string | undefined): Product[] | string {
  if (!spec) return all;
  const wanted = spec.split(",").map((s) => s.trim()).filter(Boolean);
  const unknown = wanted.filter((id) => !all.some((p) => p.id === id));
  if (unknown.length > 0) return `unknown product ${unknown.map((u) => `"${u}"`).join(", ")}; known: ${all.map((p) => p.id).join(", ")}`;
  return wanted.map((id) => all.find((p) => p.id === id) as Product);
}

export async function runBench(opts: BenchOptions): Promise<number> {
  const root = repoRoot();
  const all = await discoverProducts(root, log);
  if (opts.list) {
    for (const p of all) console.log(`${p.id.padEnd(18)} ${p.row.engine}`);
    return 0;
  }
  const chosen = choose(all, opts.products);
  if (typeof chosen === "string") {
    log(`bench: ${chosen}`);
    return 2;
  }
  const unknownRates = [...opts.rate.byProduct.keys()].filter((id) => !all.some((p) => p.id === id));
  if (unknownRates.length > 0) {
    log(`bench: --rate names unknown product ${unknownRates.join(", ")}`);
    return 2;
  }

  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const resultsDir = opts.results ?? join(root, "results", stamp);
  mkdirSync(resultsDir, { recursive: true });
  const cache = cacheRoot();
  mkdirSync(cache, { recursive: true });

  let interrupted: string | undefined;
  const onSignal = (signal: string): void => {
    if (interrupted) return;
    interrupted = `interrupted by ${signal}`;
    log(`\nbench: ${interrupted}; stopping the current run and keeping the results so far`);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);

  let broker: KafkaBroker | undefined;
  if (!opts.bootstrap) {
    try {
      mkdirSync(join(cache, "kafka"), { recursive: true });
      broker = await KafkaBroker.start({ cacheDir: join(cache, "kafka"), logFile: join(resultsDir, "broker.log"), log });
    } catch (error) {
      log(`bench: ${(error as Error).message}`);
      return 1;
    }
  }
  const bootstrap = opts.bootstrap ?? (broker as KafkaBroker).bootstrap;
  const progress = new RunProgress();
  const results: BenchResults = {
    schema: 1,
    generatedAt: new Date().toISOString(),
    host: await describeHost(),
    broker: { name: "Apache Kafka", version: broker?.version ?? "external", bootstrap, startedByRunner: broker !== undefined },
    runs: [],
  };
  const resultsFile = join(resultsDir, "results.json");
  let admin: KafkaAdmin | undefined;
  try {
    admin = await KafkaAdmin.connect(bootstrap);
    const bench = {
      bootstrap,
      ...(broker ? { brokerPid: broker.pid } : {}),
      admin,
      reference: await ReferenceModel.load(modelsDir()),
      fixtures: loadFixtures(fixturesDir()),
      repoRoot: root,
      modelsDir: modelsDir(),
      cacheDir: cache,
      resultsDir,
      log,
      onRunStart: progress.start.bind(progress),
      onTick: progress.update.bind(progress),
      onRunEnd: progress.stop.bind(progress),
      interrupted: () => interrupted,
    };
    for (const product of chosen) {
      if (interrupted) break;
      const rate = opts.rate.byProduct.get(product.id) ?? opts.rate.fallback ?? 20_000;
      const settings: RunSettings = {
        rate,
        warmupSec: opts.warmup,
        windowSec: opts.window,
        parallelism: opts.parallelism,
        seed: FIXTURE_SEED,
        drainTimeoutSec: opts.drainTimeout,
        hangSec: opts.hang,
      };
      log(`\n== ${product.id}: preparing`);
      const prepared = await product
        .prepare({ repoRoot: root, modelsDir: modelsDir(), cacheDir: productCacheDir(cache, product.id), log })
        .catch((error: Error) => ({ ok: false as const, reason: `prepare threw: ${error.message}` }));
      let result: RunResult;
      if (!prepared.ok) {
        log(`== ${product.id}: not run — ${prepared.reason}`);
        result = skipped(product, prepared.reason, settings);
      } else if (opts.sweep) {
        const startRate = opts.rate.byProduct.get(product.id) ?? opts.sweepStart;
        const sweep = await sweepProduct(
          product,
          prepared,
          settings,
          { ...DEFAULT_SWEEP, startRate, maxRate: opts.sweepMax, factor: opts.sweepFactor },
          bench,
          (run) => {
            results.runs.push(run);
            writeResults(resultsFile, results);
          },
        );
        (results.sweeps ??= []).push(sweep);
        log(`== ${product.id}: knee ${sweep.knee ?? "none"}${sweep.confirmed ? " (confirmed)" : ""}, ceiling ${sweep.ceiling ? Math.round(sweep.ceiling) : "not reached"} — ${sweep.stoppedBecause}`);
        writeResults(resultsFile, results);
        continue;
      } else {
        log(`== ${product.id}: ${rate}/s, ${opts.warmup}s warmup + ${opts.window}s window`);
        result = await measureRun(product, prepared, settings, bench);
        log(result.status === "ok" ? `== ${product.id}: ${summary(result)}` : `== ${product.id}: FAILED — ${result.reason}`);
      }
      results.runs.push(result);
      writeResults(resultsFile, results);
    }
  } finally {
    progress.stop();
    await admin?.close().catch(() => undefined);
    await broker?.stop();
  }
  writeResults(resultsFile, results);
  const page = renderPage(results);
  writeFileSync(join(resultsDir, "page.md"), page);
  writeHtmlPage(join(resultsDir, "page.html"), results);
  writeArrowFiles(resultsDir, results);
  console.log(page);
  log(`\nresults: ${resultsFile}\npage:    ${join(resultsDir, "page.md")}\nhtml:    ${join(resultsDir, "page.html")}`);
  return interrupted ? 130 : 0;
}

function skipped(product: Product, reason: string, settings: RunSettings): RunResult {
  return {
    product: product.id,
    status: "skipped",
    reason,
    startedAt: new Date().toISOString(),
    settings: { offeredRate: settings.rate, warmupSec: settings.warmupSec, windowSec: settings.windowSec, parallelism: settings.parallelism, seed: settings.seed },
    row: product.row,
    versions: {},
    deviations: [],
    notes: product.notes ?? [],
    consumedSource: "",
    gendataWarnings: [],
    ticks: [],
  };
}

function summary(r: RunResult): string {
  const t = r.throughput!;
  return `${Math.round(t.consumedPerSec)}/s consumed of ${Math.round(t.offeredPerSec)}/s offered (${t.regime}), cpu ${t.cpuAvg.toFixed(1)}%, ${Math.round(t.rowsPerCore)} rows/s per core, lost ${r.delivery?.lost}, dup ${r.delivery?.duplicated}`;
}
