/** Seeded random draws for the statistical tests: what a sitting's noise could be. */

/** A standard normal draw (Box–Muller) from a seeded generator. */
export function normal(rng: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
}

/** A χ² draw on `df` (a whole number) degrees of freedom. */
export const chiSquare = (rng: () => number, df: number): number => Array.from({ length: df }, () => normal(rng) ** 2).reduce((a, b) => a + b, 0);
