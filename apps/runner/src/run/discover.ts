/**
 * Finds the products: every folder under packages/adapters/ whose package.json names an entry
 * exporting `products`. Adding a product is adding a folder; the runner is not edited.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Product } from "@bench/core";

/** A product and the package it came from (the CI job tests that package). */
export interface Discovered {
  product: Product;
  packageName: string;
}

export const adaptersDir = (repoRoot: string): string => join(repoRoot, "packages", "adapters");

/** Every product of every adapter folder in `dir`, in folder order. */
export async function discoverIn(dir: string, warn: (line: string) => void = console.error): Promise<Discovered[]> {
  const found: Discovered[] = [];
  for (const folder of readdirSync(dir).sort()) {
    const manifest = join(dir, folder, "package.json");
    if (!existsSync(manifest)) continue;
    const pkg = JSON.parse(readFileSync(manifest, "utf8")) as { name: string; exports?: { ".": string } };
    const entry = pkg.exports?.["."];
    if (!entry) throw new Error(`${pkg.name} has no exports["."] entry`);
    // One broken adapter must not take the others down: it is reported and left out.
    try {
      const mod = (await import(pathToFileURL(join(dir, folder, entry)).href)) as { products?: Product[] };
      if (!Array.isArray(mod.products)) throw new Error("its entry does not export `products`");
      found.push(...mod.products.map((product) => ({ product, packageName: pkg.name })));
    } catch (error) {
      warn(`bench: adapter ${pkg.name} left out: ${(error as Error).message.split("\n")[0]}`);
    }
  }
  const ids = found.map((d) => d.product.id);
  const dup = ids.find((id, i) => ids.indexOf(id) !== i);
  if (dup) throw new Error(`two adapters define the product "${dup}"`);
  return found;
}

export async function discoverProducts(repoRoot: string, warn: (line: string) => void = console.error): Promise<Product[]> {
  return (await discoverIn(adaptersDir(repoRoot), warn)).map((d) => d.product);
}
