/**
 * The model alone in a row's own runtime (Product.timeModelAlone): how every runtime times it, and
 * the child process that does, whose one JSON line is checked before it is kept.
 */
import { execa } from "execa";

/**
 * How the model alone is timed in every runtime (models/model_alone.py holds the same figures, a
 * test checks): this many repetitions, each at least minCpuSec of CPU in calls after warmCalls untimed ones.
 */
export const MODEL_ALONE_TIMING = { repetitions: 5, minCpuSec: 0.3, warmCalls: 3 } as const;

/** The model alone timed in a row's own runtime: that runtime's versions and CPU µs per record in each repetition. */
export interface ModelAloneTiming {
  versions: Record<string, string>;
  usPerRecord: number[];
}

/** The timing arguments every timer takes after its call shape's records: repetitions, CPU seconds each, warm calls. */
export const timingArgs = (): string[] =>
  [MODEL_ALONE_TIMING.repetitions, MODEL_ALONE_TIMING.minCpuSec, MODEL_ALONE_TIMING.warmCalls].map(String);

/** A timer's last stdout line as a timing, or why it cannot be kept: one positive finite figure per repetition. */
export function parseModelAloneTiming(stdout: string, what: string): ModelAloneTiming {
  const line = stdout.trim().split("\n").at(-1) ?? "";
  let parsed: Partial<ModelAloneTiming>;
  try {
    parsed = JSON.parse(line) as Partial<ModelAloneTiming>;
  } catch {
    throw new Error(`${what} printed no JSON line: ${JSON.stringify(line.slice(0, 200))}`);
  }
  const figures = parsed.usPerRecord;
  if (!Array.isArray(figures) || figures.length !== MODEL_ALONE_TIMING.repetitions || !figures.every((x) => Number.isFinite(x) && x > 0)) {
    throw new Error(`${what} gave no ${MODEL_ALONE_TIMING.repetitions} positive figures: ${JSON.stringify(line.slice(0, 200))}`);
  }
  const versions = typeof parsed.versions === "object" && parsed.versions !== null ? parsed.versions : {};
  return { versions, usPerRecord: figures };
}

/** Runs a timer child to its end (within timeoutSec) and keeps its timing. */
export async function timeModelAloneChild(
  what: string, command: string, args: readonly string[], opts: { env?: Record<string, string>; cwd?: string; timeoutSec?: number } = {},
): Promise<ModelAloneTiming> {
  const timeoutSec = opts.timeoutSec ?? 180;
  const done = await execa(command, [...args], {
    ...(opts.env ? { env: opts.env } : {}), ...(opts.cwd ? { cwd: opts.cwd } : {}), timeout: timeoutSec * 1000, reject: false,
  });
  if (done.exitCode !== 0) {
    const why = done.timedOut ? `did not finish within ${timeoutSec} s` : String(done.stderr).trim().split("\n").slice(-4).join(" / ");
    throw new Error(`${what} failed (exit ${done.exitCode ?? "none"}): ${why}`);
  }
  return parseModelAloneTiming(String(done.stdout), what);
}
