import { InvalidArgumentError } from "commander";

/** Offered records/s when neither --rate nor (in CI) the product's `ci.rate` says otherwise. */
export const DEFAULT_RATE = 20_000;

/** "20000" or "a=80000,default=20000" -> a rate for each product id. */
export function parseRates(spec: string): { byProduct: Map<string, number>; fallback: number | undefined } {
  const byProduct = new Map<string, number>();
  let fallback: number | undefined;
  for (const part of spec.split(",").map((p) => p.trim()).filter(Boolean)) {
    const [name, value] = part.includes("=") ? (part.split("=", 2) as [string, string]) : ["default", part];
    const rate = Number(value);
    if (!Number.isInteger(rate) || rate <= 0) throw new InvalidArgumentError(`"${part}" is not a positive whole rate`);
    if (name === "default") fallback = rate;
    else byProduct.set(name, rate);
  }
  return { byProduct, fallback };
}
