/**
 * One yardstick reading of the runtimes besides V8, taken where the speed index is read. A
 * runtime whose probe cannot be built or run (no python3.11, no JDK, no network for the pins)
 * has no reading and says why; its rows are then read by V8's index, and the page says so.
 */
import { join } from "node:path";
import type { RunResult, RunYardstick, RuntimeReadings } from "../results/types.ts";
import { readCpython, type YardstickPlace } from "./cpython.ts";
import { readJvm } from "./jvm.ts";
import { declaredMix, mixFromProfile } from "./mix.ts";

export interface YardstickContext {
  /** The bench's cache root (~/.cache/stream-ml-bench); the yardstick keeps its venv and classes under yardstick/. */
  cacheDir: string;
  modelsDir: string;
  log(line: string): void;
}

export async function readRuntimes(ctx: YardstickContext): Promise<RuntimeReadings> {
  const place: YardstickPlace = { dir: join(ctx.cacheDir, "yardstick"), modelsDir: ctx.modelsDir, log: ctx.log };
  const readings: RuntimeReadings = {};
  const missing: NonNullable<RuntimeReadings["missing"]> = {};
  for (const [runtime, read] of [["cpython", readCpython], ["jvm", readJvm]] as const) {
    try {
      readings[runtime] = await read(place);
    } catch (error) {
      missing[runtime] = (error as Error).message.split("\n")[0] ?? "no reading";
    }
  }
  return Object.keys(missing).length > 0 ? { ...readings, missing } : readings;
}

/** Runtime readings are spaced by time: each costs seconds of CPU, and what they are for (taking a figure across machines) does not drift within minutes. */
export const RUNTIME_SPACING_MS = 300_000;

/** The last runtime reading while it is at most `spacingMs` old, else a new one. */
export class SpacedRuntimes {
  private last: { at: number; readings: RuntimeReadings } | undefined;

  constructor(
    private readonly ctx: YardstickContext,
    private readonly spacingMs = RUNTIME_SPACING_MS,
    private readonly read: (ctx: YardstickContext) => Promise<RuntimeReadings> = readRuntimes,
    private readonly now: () => number = Date.now,
  ) {}

  async reading(): Promise<RuntimeReadings> {
    if (this.last !== undefined && this.now() - this.last.at <= this.spacingMs) return this.last.readings;
    const readings = await this.read(this.ctx);
    this.last = { at: this.now(), readings };
    return readings;
  }
}

/** The bench's spaced reading when it has one (runner's BenchContext.runtimes), else a fresh one. */
export function runtimeReading(ctx: YardstickContext & { runtimes?: { reading(): Promise<RuntimeReadings> } }): Promise<RuntimeReadings> {
  return ctx.runtimes?.reading() ?? readRuntimes(ctx);
}

/** What a run keeps: the readings before and after it, and the mix it is normalised by (its own profile's, else its row's declared one). */
export function runYardstick(before: RuntimeReadings, after: RuntimeReadings, run: RunResult): RunYardstick {
  const mix = (run.profile ? mixFromProfile(run.profile) : undefined) ?? declaredMix(run);
  return { before, after, ...(mix ? { mix } : {}) };
}

/** Builds the probes (a venv, Jackson's jars, javac) before the first run and logs a first reading, so no run waits for a build. */
export async function prepareYardstick(ctx: YardstickContext & { runtimes?: { reading(): Promise<RuntimeReadings> } }): Promise<void> {
  const r = await runtimeReading(ctx);
  const read = (["cpython", "jvm"] as const).map((k) => `${k} ${r[k] ? Math.round(r[k].recordsPerCpuSecond) : `no reading (${r.missing?.[k] ?? "?"})`}`);
  ctx.log(`bench: runtime yardstick ${read.join(", ")} records per CPU-second`);
}
