/**
 * The app's consumed count: the input offset its scoring UDF has gone through (good and skipped
 * records alike), rewritten to a small file once a second. Pathway commits no processed
 * position to the consumer group (librdkafka's auto-commit there is what the reader has fetched).
 */
import { readFile } from "node:fs/promises";

/** The count in the file's text; 0 until the app has written one. */
export function parseConsumed(text: string): number {
  const value = Number(text.trim());
  return text.trim() !== "" && Number.isSafeInteger(value) && value >= 0 ? value : 0;
}

export async function readConsumed(file: string): Promise<number> {
  try {
    return parseConsumed(await readFile(file, "utf8"));
  } catch {
    return 0;
  }
}
