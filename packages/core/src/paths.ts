import { accessSync, constants, existsSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Product } from "./adapter.ts";

/** The monorepo root: the folder holding pnpm-workspace.yaml above this file. */
export function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "pnpm-workspace.yaml"))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error("cannot find the repository root (no pnpm-workspace.yaml above @bench/core)");
    dir = parent;
  }
  return dir;
}

export const modelsDir = (): string => join(repoRoot(), "models");
export const fixturesDir = (): string => join(repoRoot(), "fixtures");

/** Everything downloaded or built lives here, never in the repo. BENCH_CACHE_DIR overrides. */
export function cacheRoot(): string {
  return resolve(process.env.BENCH_CACHE_DIR ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "stream-ml-bench"));
}

/** A product's folder under the cache root: its family's, so rows of one adapter share venvs and jars. */
export function productCacheDir(root: string, product: Pick<Product, "id" | "family">): string {
  return join(root, product.family ?? product.id);
}

/** A regular file this process may execute (a product binary or an interpreter the user names). */
export function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
