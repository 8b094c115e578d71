/**
 * The mix each row declares for runs that were not profiled, read from its adapter folder's
 * package.json: `"bench": { "mix": { "<product id>": { "cpython": 0.95, "native": 0.05 } } }`, so
 * adding a product edits nothing outside its folder. An adapter declares its row's profile at its
 * knee (each process's CPU per thread sorted by `mix.ts`, rounded to 5 %, shares summing to 1). A
 * row's mix moves with its rate, so the page calls these declared, not measured. A row that
 * declares none is read by V8's index.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "@bench/core";
import type { YardstickRuntime } from "../results/types.ts";
import { adaptersDir } from "../run/discover.ts";

export type DeclaredShares = Partial<Record<YardstickRuntime, number>>;

const RUNTIMES: readonly YardstickRuntime[] = ["v8", "cpython", "jvm", "native"];

/** One product's declared shares, checked: known runtimes, each in (0, 1], summing to 1. */
function checkedShares(value: unknown, what: string): DeclaredShares {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error(`${what} must map runtimes to shares`);
  const entries = Object.entries(value as Record<string, unknown>);
  for (const [runtime, share] of entries) {
    if (!RUNTIMES.includes(runtime as YardstickRuntime)) throw new Error(`${what}: unknown runtime "${runtime}" (one of ${RUNTIMES.join(", ")})`);
    if (typeof share !== "number" || !(share > 0 && share <= 1)) throw new Error(`${what}.${runtime} must be a share in (0, 1]`);
  }
  const total = entries.reduce((sum, [, share]) => sum + (share as number), 0);
  if (Math.abs(total - 1) > 0.001) throw new Error(`${what}: shares sum to ${total}, not 1`);
  return value as DeclaredShares;
}

/** Every product's declared mix in the adapter folders under `dir`, by product id. */
export function readDeclaredMixes(dir: string): Record<string, DeclaredShares> {
  const mixes: Record<string, DeclaredShares> = {};
  for (const folder of readdirSync(dir).sort()) {
    const manifest = join(dir, folder, "package.json");
    if (!existsSync(manifest)) continue;
    const declared = (JSON.parse(readFileSync(manifest, "utf8")) as { bench?: { mix?: unknown } }).bench?.mix;
    if (declared === undefined) continue;
    if (typeof declared !== "object" || declared === null || Array.isArray(declared)) throw new Error(`${manifest}: bench.mix must map product ids to mixes`);
    for (const [product, shares] of Object.entries(declared as Record<string, unknown>)) {
      if (mixes[product]) throw new Error(`${manifest}: bench.mix declares "${product}", which another adapter declares too`);
      mixes[product] = checkedShares(shares, `${manifest}: bench.mix.${product}`);
    }
  }
  return mixes;
}

let repoMixes: Record<string, DeclaredShares> | undefined;

/** The repository's adapters' declared mixes, read once: a page renders many rows from them. */
export function declaredMixes(): Record<string, DeclaredShares> {
  repoMixes ??= readDeclaredMixes(adaptersDir(repoRoot()));
  return repoMixes;
}
