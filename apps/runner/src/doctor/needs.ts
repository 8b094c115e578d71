/**
 * What each product says it needs (`Product.prerequisites()`), asked of all at once: rows that
 * share a lookup (core's Debian torch checks, an adapter's two rows) run it once.
 */
import type { Prerequisite, Product } from "@bench/core";

export interface ProductNeeds {
  product: string;
  prerequisites: Prerequisite[];
}

export async function gatherNeeds(products: readonly Product[]): Promise<ProductNeeds[]> {
  return Promise.all(products.map(async (p) => ({ product: p.id, prerequisites: await askPrerequisites(p) })));
}

/** An adapter whose lookup throws is a finding about that adapter, not the end of the doctor. */
async function askPrerequisites(product: Product): Promise<Prerequisite[]> {
  if (!product.prerequisites) return [];
  try {
    return await product.prerequisites();
  } catch (error) {
    const reason = `its prerequisites() threw: ${(error as Error).message.split("\n")[0]}`;
    return [
      {
        name: `${product.id} prerequisites`,
        have: "an error",
        ok: false,
        reason,
        fix: "fix the adapter's prerequisites(); its prepare() still decides whether it runs",
      },
    ];
  }
}
