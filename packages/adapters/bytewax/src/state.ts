/**
 * Where a Bytewax run keeps what it must find again after a kill -9: Bytewax keeps no consumer
 * group, so its input position lives in its recovery store (SQLite partitions), and the app's
 * consumed counter sits beside it. Both are per consumer group, the identity the runner gives a
 * consumer: a restart on the same group (bench --faults: kill -9, then start() again with a
 * fresh run folder) must find the store the killed run wrote.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";

/** Inside a state folder: the recovery directory `python -m bytewax.run -r` reads. */
export const RECOVERY_DIR = "recovery";
/** Inside a state folder: the app's counter (app/main.py ConsumedCounter), one number. */
export const COUNTER_FILE = "consumed";
/** The one recovery partition `python -m bytewax.recovery DIR 1` creates (one worker). */
export const RECOVERY_PARTITION = "part-0.sqlite3";

/**
 * The state folder of each consumer group: `bytewax-state` in the run folder of the group's
 * first start, kept with that run's logs; later starts on the group get the same folder.
 */
export class GroupStateFolders {
  private readonly folders = new Map<string, string>();

  folderFor(groupId: string, runDir: string): string {
    const known = this.folders.get(groupId);
    if (known !== undefined) return known;
    const folder = join(runDir, "bytewax-state");
    this.folders.set(groupId, folder);
    return folder;
  }
}

/** Whether the recovery directory has been initialised (its partition file exists). */
export function recoveryInitialised(stateFolder: string): boolean {
  return existsSync(join(stateFolder, RECOVERY_DIR, RECOVERY_PARTITION));
}

/** The counter file's number; undefined for text that is not one whole, non-negative number. */
export function parseCounter(text: string): number | undefined {
  const trimmed = text.trim();
  return /^\d+$/.test(trimmed) ? Number(trimmed) : undefined;
}

/**
 * A reader of the counter file for the runner's engine counter: 0 before the app has written
 * one, and the last number read while the file is missing or unreadable (it is replaced by a
 * rename, so a read sees a whole number or no file).
 */
export function counterReader(file: string): () => Promise<number> {
  let last = 0;
  return async () => {
    const text = await readFile(file, "utf8").catch(() => undefined);
    const value = text === undefined ? undefined : parseCounter(text);
    if (value !== undefined) last = value;
    return last;
  };
}
