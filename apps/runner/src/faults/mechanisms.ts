/**
 * TRANSITIONAL — delete this file once run-faults.ts reads `product.lossUnderKill` itself (the
 * Product it runs is in scope there). How a product's delivery path can lose records to a
 * kill -9 is the product's own `lossUnderKill` now; until then this answers run-faults.ts's
 * question by id from the discovered products, so no product is named here.
 */
import { repoRoot } from "@bench/core";
import { discoverProducts } from "../run/discover.ts";

const products = await discoverProducts(repoRoot(), () => undefined);

export function lossMechanism(productId: string): string | undefined {
  return products.find((p) => p.id === productId)?.lossUnderKill;
}
