/**
 * The CPython yardstick: `cpython-work.py` in fresh interpreters of Debian's python3.11, the
 * interpreter every Python 3.11 row runs in, with the rows' orjson pin in a small venv of its own
 * in the cache. Not a row's venv: the reading needs no torch (the forward is native code, left
 * out) and must not wait for a Python row to have been prepared, and the interpreter is the same
 * binary either way.
 */
import { join } from "node:path";
import { DEBIAN_PYTHON, ensurePythonEnv } from "@bench/core";
import type { RuntimeReading } from "../results/types.ts";
import { readingOf, recordsFile, runProcesses } from "./probe.ts";

/** The orjson the Python rows pin (confluent-kafka's PYTHON_ROW, faststream's codec, quix's serde). */
export const ORJSON_PIN = "orjson==3.13.0";
export const CPYTHON_PROCESSES = 5;
/** Records per repetition: tens of ms of CPU, well above process_time_ns's resolution. */
export const CPYTHON_RECORDS = 4_000;
const REPEATS = 9;
const WARMUP = 4_000;
const WORK = join(import.meta.dirname, "cpython-work.py");

export interface YardstickPlace {
  /** The yardstick's own cache folder. */
  dir: string;
  modelsDir: string;
  log(line: string): void;
}

export async function readCpython(place: YardstickPlace): Promise<RuntimeReading> {
  const { python } = await ensurePythonEnv({ python: DEBIAN_PYTHON, requirements: [ORJSON_PIN] }, place.dir, place.log);
  const args = [WORK, place.modelsDir, recordsFile(place.dir), String(CPYTHON_RECORDS), String(REPEATS), String(WARMUP)];
  return readingOf(CPYTHON_RECORDS, await runProcesses(python, args, CPYTHON_PROCESSES));
}
