/**
 * One yardstick reading of the runtimes besides V8, taken where the speed index is read. A
 * runtime whose probe cannot be built or run (no python3.11, no JDK, no network for the pins)
 * has no reading and says why; its rows are then read by V8's index, and the page says so.
 */
import { join } from "node:path";
import type { RuntimeReadings } from "../results/types.ts";
import { readCpython, type YardstickPlace } from "./cpython.ts";
import { readJvm } from "./jvm.ts";

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
