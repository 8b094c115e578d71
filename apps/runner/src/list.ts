/**
 * `bench --list`: the products the adapter folders define, for a person (id and engine) or,
 * with --json, for CI: one line of JSON the workflow turns into its matrix, so a new adapter
 * folder gets its CI job without the workflow being edited.
 */
import { repoRoot } from "@bench/core";
import { EXIT } from "./exit-code.ts";
import { DEFAULT_RATE } from "./rates.ts";
import { adaptersDir, discoverIn, type Discovered } from "./run/discover.ts";

/** One CI job: the product, the package whose tests it runs, the rate of its short bench. */
export interface ListEntry {
  id: string;
  package: string;
  ciRate: number;
}

export function listEntries(discovered: readonly Discovered[]): ListEntry[] {
  return discovered.map(({ product, packageName }) => ({ id: product.id, package: packageName, ciRate: product.ci?.rate ?? DEFAULT_RATE }));
}

export function listLines(discovered: readonly Discovered[]): string[] {
  return discovered.map(({ product }) => `${product.id.padEnd(18)} ${product.row.engine}`);
}

/**
 * With --json an adapter that fails to load fails the listing (exit 1): a CI matrix that
 * silently loses a product would pass without testing it.
 */
export async function listCommand(
  json: boolean,
  dir: string = adaptersDir(repoRoot()),
  print: (text: string) => void = console.log,
  warn: (line: string) => void = console.error,
): Promise<number> {
  let leftOut = 0;
  const discovered = await discoverIn(dir, (line) => {
    leftOut += 1;
    warn(line);
  });
  if (!json) {
    for (const line of listLines(discovered)) print(line);
    return EXIT.ok;
  }
  print(JSON.stringify(listEntries(discovered)));
  return leftOut > 0 ? EXIT.couldNotRun : EXIT.ok;
}
