/** How the search writes and rounds a rate: one source for the search, its record and the rounds. */

/** 3 significant figures, whole records/s: finer rates are below run-to-run noise, and gendata takes whole rates. */
export function roundRate(rate: number): number {
  return Math.max(1, Math.round(Number(rate.toPrecision(3))));
}

/** A rate or a figure for a sentence: whole above 100, 3 significant figures under. */
export function fmt(n: number): string {
  return String(n >= 100 ? Math.round(n) : Number(n.toPrecision(3)));
}
