/**
 * What a Bytewax run must find again after a kill -9, in the run's state folder (RunContext's
 * stateDir, the same for every start of a run): Bytewax keeps no consumer group, so its input
 * position lives in its recovery store (SQLite partitions), and the app's consumed counter sits
 * beside it.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";

/** Inside a state folder: the recovery directory `python -m bytewax.run -r` reads. */
export const RECOVERY_DIR = "recovery";
/** Inside a state folder: the app's counter (app/main.py ConsumedCounter), one number. */
export const COUNTER_FILE = "consumed";
/** The one recovery partition `python -m bytewax.recovery DIR 1` creates (one worker). */
export const RECOVERY_PARTITION = "part-0.sqlite3";

/** Whether the recovery directory has been initialised (its partition file exists). */
export function recoveryInitialised(stateFolder: string): boolean {
  return existsSync(join(stateFolder, RECOVERY_DIR, RECOVERY_PARTITION));
}
