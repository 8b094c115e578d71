/** The BenchContext a runner integration test measures with: the suite's broker (counted as harness), the real model and fixtures, the native output reader. */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildOutputReader, cacheRoot, fixturesDir, loadGateRecords, modelsDir, ReferenceModel, repoRoot, type KafkaAdmin } from "@bench/core";
import { localListenerPid } from "../../src/broker/local-pid.ts";
import type { BenchContext } from "../../src/run/context.ts";

export async function testBenchContext(bootstrap: string, admin: KafkaAdmin, opts: { name: string; speedReference: number }): Promise<BenchContext> {
  const brokerPid = localListenerPid(bootstrap);
  // The bench's own audit reader; the build is cached, so only the suite's first context builds it.
  const reader = await buildOutputReader(cacheRoot(), () => undefined);
  if (!("binary" in reader)) throw new Error(`the native output reader did not build: ${reader.why}`);
  return {
    bootstrap,
    guarantee: "at-least-once",
    ...(brokerPid !== undefined ? { brokerPid } : {}),
    admin,
    reference: await ReferenceModel.load(modelsDir()),
    outputReader: reader.binary,
    fixtures: loadGateRecords(fixturesDir()),
    repoRoot: repoRoot(),
    modelsDir: modelsDir(),
    cacheDir: cacheRoot(),
    resultsDir: mkdtempSync(join(tmpdir(), `bench-${opts.name}-`)),
    speedReference: opts.speedReference,
    log: () => undefined,
    interrupted: () => undefined,
  };
}
