/**
 * The verification gate, before any timing (TechEmpower's verify step): the product scores
 * the committed fixture records; every output must carry its record's event id and the
 * reference model's risk within the card's tolerance. A product that fails is not timed.
 * It doubles as the readiness check: a product that has scored the fixtures is consuming.
 */
import { produceMessages, readTopic, type FixtureRow } from "@bench/core";
import type { VerificationResult } from "../results/types.ts";

export interface OutputView {
  event_id?: unknown;
  risk?: unknown;
}

export async function verifyProduct(opts: {
  bootstrap: string;
  inputTopic: string;
  outputTopic: string;
  fixtures: FixtureRow[];
  tolerance: number;
  passthrough: boolean;
  timeoutMs: number;
  aborted: () => string | undefined;
}): Promise<VerificationResult> {
  const expected = new Map(opts.fixtures.map((f) => [f.record.event_id, f.risk]));
  await produceMessages(
    opts.bootstrap,
    opts.inputTopic,
    opts.fixtures.map((f) => ({ key: f.record.partition_key, value: JSON.stringify(f.record) })),
  );
  const seen = new Set<string>();
  let maxError = 0;
  let problem: string | undefined;
  let outputsRead = 0;
  const deadline = Date.now() + opts.timeoutMs;
  while (seen.size < expected.size && problem === undefined && Date.now() < deadline) {
    const abort = opts.aborted();
    if (abort) return { passed: false, checked: seen.size, maxError, problem: abort };
    await readTopic(
      opts.bootstrap,
      opts.outputTopic,
      (batch) => {
        for (const m of batch) {
          outputsRead++;
          let out: OutputView;
          try {
            out = JSON.parse(m.value.toString("utf8")) as OutputView;
          } catch {
            problem ??= `output at offset ${m.offset} is not JSON: ${m.value.toString("utf8").slice(0, 120)}`;
            continue;
          }
          const id = String(out.event_id);
          if (!expected.has(id)) {
            problem ??= `output at offset ${m.offset} carries unknown event_id ${JSON.stringify(out.event_id)}`;
            continue;
          }
          seen.add(id);
          if (opts.passthrough) continue;
          const risk = Number(out.risk);
          const error = Math.abs(risk - (expected.get(id) as number));
          if (!Number.isFinite(error)) problem ??= `event ${id}: risk ${JSON.stringify(out.risk)} is not a number`;
          else maxError = Math.max(maxError, error);
        }
      },
      { fromOffset: outputsRead, stopAt: expected.size, idleMs: 3_000, timeoutMs: Math.max(1000, deadline - Date.now()) },
    );
  }
  if (problem === undefined && seen.size < expected.size) {
    problem = `only ${seen.size} of ${expected.size} fixture records came out within ${opts.timeoutMs / 1000}s`;
  }
  if (problem === undefined && maxError > opts.tolerance) {
    problem = `largest risk error ${maxError.toExponential(2)} exceeds the card's tolerance ${opts.tolerance}`;
  }
  return { passed: problem === undefined, checked: seen.size, maxError, ...(problem ? { problem } : {}) };
}
