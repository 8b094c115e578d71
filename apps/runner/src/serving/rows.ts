/**
 * The rows a served bench runs, and how each runs served. A row whose adapter offers served gets the
 * model server's gRPC address in its RunContext (apps read it as BENCH_MODEL_SERVER) and says so in
 * its processing column; a row that cannot call a server is kept as a skipped row with the reason
 * its adapter gives (NOT_SERVED first, so the page can list it apart), as under exactly-once.
 */
import { NOT_SERVED, type Product, type ServedOffer, type Serving } from "@bench/core";

export interface ServedRows {
  runnable: Product[];
  skipped: Array<{ product: Product; reason: string }>;
}

/** Embedded: every chosen row as it is. Served: the rows that offer it, calling the server at `address()`. */
export function servedRows(chosen: readonly Product[], serving: Serving, address: () => string): ServedRows {
  if (serving === "embedded") return { runnable: [...chosen], skipped: [] };
  const runnable: Product[] = [];
  const skipped: ServedRows["skipped"] = [];
  for (const product of chosen) {
    const offer = product.served;
    if (offer?.offered) runnable.push(asServed(product, offer, address));
    else skipped.push({ product, reason: `${NOT_SERVED}${offer ? offer.why : "its adapter does not declare whether the row can call a model server"}` });
  }
  return { runnable, skipped };
}

/** The row as it runs served: every start is handed the server's address, and its first table's processing says how it calls it. */
function asServed(product: Product, offer: Extract<ServedOffer, { offered: true }>, address: () => string): Product {
  return {
    ...product,
    row: { ...product.row, processing: `${product.row.processing}; served: ${offer.how}` },
    start: (ctx, found) => product.start({ ...ctx, modelServer: address() }, found),
  };
}
