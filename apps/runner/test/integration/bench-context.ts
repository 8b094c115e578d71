/** The BenchContext a runner integration test measures with: the suite's broker (counted as harness), the real model and fixtures. */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cacheRoot, fixturesDir, loadGateRecords, modelsDir, ReferenceModel, repoRoot, type KafkaAdmin } from "@bench/core";
import { localListenerPid } from "../../src/broker/local-pid.ts";
import type { BenchContext } from "../../src/run/context.ts";

export async function testBenchContext(bootstrap: string, admin: KafkaAdmin, opts: { name: string; speedReference: number }): Promise<BenchContext> {
  const brokerPid = localListenerPid(bootstrap);
  return {
    bootstrap,
    ...(brokerPid !== undefined ? { brokerPid } : {}),
    admin,
    reference: await ReferenceModel.load(modelsDir()),
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
