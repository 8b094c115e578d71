/**
 * Finds the products: every folder under packages/adapters/ whose package.json names an entry
 * exporting `products`. Adding a product is adding a folder; the runner is not edited.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Product } from "@bench/core";

export async function discoverProducts(repoRoot: string, warn: (line: string) => void = console.error): Promise<Product[]> {
  const adaptersDir = join(repoRoot, "packages", "adapters");
  const products: Product[] = [];
  for (const folder of readdirSync(adaptersDir).sort()) {
    const manifest = join(adaptersDir, folder, "package.json");
    if (!existsSync(manifest)) continue;
    const pkg = JSON.parse(readFileSync(manifest, "utf8")) as { name: string; exports?: { ".": string } };
    const entry = pkg.exports?.["."];
    if (!entry) throw new Error(`${pkg.name} has no exports["."] entry`);
    // One broken adapter must not take the others down: it is reported and left out.
    try {
      const mod = (await import(pathToFileURL(join(adaptersDir, folder, entry)).href)) as { products?: Product[] };
      if (!Array.isArray(mod.products)) throw new Error("its entry does not export `products`");
      products.push(...mod.products);
    } catch (error) {
      warn(`bench: adapter ${pkg.name} left out: ${(error as Error).message.split("\n")[0]}`);
    }
  }
  const ids = products.map((p) => p.id);
  const dup = ids.find((id, i) => ids.indexOf(id) !== i);
  if (dup) throw new Error(`two adapters define the product "${dup}"`);
  return products;
}
