/**
 * The model alone in the node row's own runtime: the row's call (core's ReferenceModel.score, one
 * onnxruntime-node run over a row-major float32 batch) at the row's call shape, timed by this
 * process's CPU (process.cpuUsage: every thread, ONNX Runtime's included). Run as a child of its own
 * so nothing else in the process is counted:
 *
 *   node --import tsx time.ts RECORDS REPETITIONS MIN_CPU_SEC WARM_CALLS
 *
 * prints one JSON line: { versions, usPerRecord }. BENCH_MODELS_DIR and BENCH_MODEL name the model.
 */
import { createRequire } from "node:module";
import { ReferenceModel } from "@bench/core";

const cpuSeconds = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

async function main(argv: string[]): Promise<void> {
  const [records, repetitions, minCpuSec, warmCalls] = argv.map(Number);
  if (![records, repetitions, minCpuSec, warmCalls].every((n) => n !== undefined && Number.isFinite(n) && n > 0)) {
    throw new Error(`usage: time.ts RECORDS REPETITIONS MIN_CPU_SEC WARM_CALLS (got ${argv.join(" ")})`);
  }
  const modelsDir = process.env.BENCH_MODELS_DIR;
  if (!modelsDir) throw new Error("BENCH_MODELS_DIR is not set");
  const model = await ReferenceModel.load(modelsDir, process.env.BENCH_MODEL || undefined);
  // Normalised features in [0, 1): a dense network's cost does not depend on the values.
  const features = Float32Array.from({ length: records! * 4 }, (_, i) => ((i * 2654435761) % 1000) / 1000);
  for (let i = 0; i < warmCalls!; i++) await model.score(features);
  const usPerRecord: number[] = [];
  for (let rep = 0; rep < repetitions!; rep++) {
    let calls = 0;
    const start = cpuSeconds();
    let spent = 0;
    while ((spent = cpuSeconds() - start) < minCpuSec!) {
      await model.score(features);
      calls++;
    }
    usPerRecord.push((spent / (calls * records!)) * 1e6);
  }
  const version = (createRequire(import.meta.url)("onnxruntime-node/package.json") as { version: string }).version;
  console.log(JSON.stringify({ versions: { node: process.versions.node, "onnxruntime-node": version }, usPerRecord }));
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error((error as Error).message);
  process.exit(1);
});
