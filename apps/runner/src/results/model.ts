/** What a results file says of the model its rows ran: enough to tell two models' results apart and to size them. */
import { DEFAULT_MODEL, type ModelCard } from "@bench/core";
import type { BenchResults, ModelRecord } from "./types.ts";

/** The hidden widths of a card that names none: the seed's 4-16-1 network. */
const SEED_HIDDEN = [16];

/** Multiply-adds one record costs through Linear layers 4 → hidden… → 1 (ReLU and Sigmoid not counted). */
export function multiplyAddsPerRecord(inputs: number, hidden: readonly number[]): number {
  const widths = [inputs, ...hidden, 1];
  return widths.slice(1).reduce((sum, width, i) => sum + (widths[i] as number) * width, 0);
}

export function modelOf(card: ModelCard): ModelRecord {
  const hidden = card.hidden ?? SEED_HIDDEN;
  return { name: card.name, hidden, multiplyAddsPerRecord: multiplyAddsPerRecord(card.features.length, hidden), weightsSha256: card.weights_sha256 };
}

/** The seed's network, for results files from before they named their model (the 4 features in, 16 hidden, 1 out). */
const SEED_MODEL: ModelRecord = { name: DEFAULT_MODEL, hidden: SEED_HIDDEN, multiplyAddsPerRecord: multiplyAddsPerRecord(4, SEED_HIDDEN), weightsSha256: "" };

/** The model a results file's rows ran; files from before `--model` ran the seed's. */
export const modelOfResults = (results: BenchResults): ModelRecord => results.model ?? SEED_MODEL;
