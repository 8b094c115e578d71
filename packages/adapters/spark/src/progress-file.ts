/**
 * consumed/s for the Spark row: Spark commits no consumer group, so the app's
 * StreamingQueryListener writes, after every micro-batch, the input offset the query has
 * finished (the end offset of its progress) to a small JSON file, replaced atomically; the
 * adapter reads it as the row's engine counter.
 */
import { readFileSync } from "node:fs";
import type { ConsumedSource } from "@bench/core";

export interface ProgressState {
  /** Records of the input partition the query has finished (the progress's end offset). */
  consumed: number;
  batch: number;
  /** Input rows of the last micro-batch. */
  rows: number;
  /** Malformed records counted (observe()) by the micro-batches this process ran. */
  skipped: number;
}

/** The file's state, or undefined before the first progress (or for a file that is not one). */
export function readProgress(file: string): ProgressState | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  try {
    const state = JSON.parse(text) as Partial<ProgressState>;
    return typeof state.consumed === "number"
      ? { consumed: state.consumed, batch: state.batch ?? -1, rows: state.rows ?? 0, skipped: state.skipped ?? 0 }
      : undefined;
  } catch {
    return undefined;
  }
}

export function progressCounter(file: string): Extract<ConsumedSource, { kind: "engine-counter" }> {
  return {
    kind: "engine-counter",
    describe: "the end offset of the query's last StreamingQueryProgress (records the micro-batches have finished), written by the app's " +
      "StreamingQueryListener after each batch",
    read: async () => readProgress(file)?.consumed ?? 0,
  };
}
