/**
 * An engine counter read from a file: rows whose engine commits no consumer group (Bytewax,
 * Pathway) have their app write how many input records it has gone through, one whole number,
 * replaced by a rename about once a second; the runner reads it as consumed.
 */
import { readFile } from "node:fs/promises";
import type { ConsumedSource } from "./adapter.ts";

/** The file's number; undefined for text that is not one whole, non-negative number. */
export function parseCounter(text: string): number | undefined {
  const trimmed = text.trim();
  return /^\d+$/.test(trimmed) && Number.isSafeInteger(Number(trimmed)) ? Number(trimmed) : undefined;
}

/**
 * The runner's engine counter over `file`: 0 before the app has written one, and the last number
 * read while the file is missing or unreadable (a rename replaces it, so a read sees a whole
 * number or no file).
 */
export function counterFile(file: string, describe: string): Extract<ConsumedSource, { kind: "engine-counter" }> {
  let last = 0;
  return {
    kind: "engine-counter",
    describe,
    read: async () => {
      const text = await readFile(file, "utf8").catch(() => undefined);
      const value = text === undefined ? undefined : parseCounter(text);
      if (value !== undefined) last = value;
      return last;
    },
  };
}
