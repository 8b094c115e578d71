/** What a results file says of the model its rows ran: enough to tell two models' results apart and to size them. */
import type { ModelCard } from "@bench/core";
import type { ModelRecord } from "./types.ts";

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
