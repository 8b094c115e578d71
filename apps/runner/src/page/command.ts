import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { guaranteeOf, modelName, readResults, readResultSets, servingOf } from "../results/files.ts";
import type { BenchResults, RuntimeReadings } from "../results/types.ts";
import { parseSupplied, withSupplied } from "../yardstick/supplied.ts";
import type { OtherMachine } from "./across-machines.ts";
import { renderPage, type PageExtras } from "./render.ts";

/** `--compare LABEL=a.json[,b.json]` (or just the paths, then labelled by them): another machine's results, merged. */
export function parseOtherMachine(spec: string, resolvePath: (path: string) => string = (p) => p): OtherMachine {
  const at = spec.indexOf("=");
  const [label, paths] = at > 0 ? [spec.slice(0, at), spec.slice(at + 1)] : [spec, spec];
  return { label, results: readResults(paths.split(",").map((path) => resolvePath(path))) };
}

/**
 * render's files as the page's results set (the first file's model and guarantee) and the sets
 * shown beside it: the same guarantee under a second model (the two models' section), the same
 * model under the other guarantee (the exactly-once section), the same model and guarantee the other
 * way served (the embedded-or-served section). Any other set is an error.
 */
export function pageSets(paths: string[]): { page: BenchResults; beside: Pick<PageExtras, "otherModel" | "otherGuarantee" | "otherServing"> } {
  const [page, ...others] = readResultSets(paths) as [BenchResults, ...BenchResults[]];
  const describe = (r: BenchResults): string => `${modelName(r)} ${guaranteeOf(r)} ${servingOf(r)}`;
  const beside: Pick<PageExtras, "otherModel" | "otherGuarantee" | "otherServing"> = {};
  for (const other of others) {
    const sameModel = modelName(other) === modelName(page);
    const sameGuarantee = guaranteeOf(other) === guaranteeOf(page);
    const sameServing = servingOf(other) === servingOf(page);
    const slot = !sameServing ? (sameModel && sameGuarantee ? "otherServing" : undefined)
      : sameGuarantee ? "otherModel" : sameModel ? "otherGuarantee" : undefined;
    if (slot === undefined || beside[slot] !== undefined) {
      throw new Error(
        `the files hold rows of ${[page, ...others].map(describe).join(", ")}: a page shows its own set (${describe(page)}) beside at most one other ` +
          "model under its guarantee, its model under the other guarantee, and the same rows the other way served",
      );
    }
    beside[slot] = other;
  }
  return { page, beside };
}

/** The side `here` names the page's own results; any other, a `--compare` label. */
export const HERE = "here";

/**
 * `--supplied LABEL:cpython=2318ns[,jvm=…]`: runtime readings taken by hand (the same probe on
 * both machines) for the side LABEL, in place of its own; by label, checked against the sides there are.
 */
export function parseSuppliedSpecs(specs: readonly string[], labels: readonly string[]): Map<string, RuntimeReadings> {
  const bySide = new Map<string, RuntimeReadings>();
  for (const spec of specs) {
    const at = spec.indexOf(":");
    const label = at > 0 ? spec.slice(0, at) : "";
    if (label !== HERE && !labels.includes(label)) throw new Error(
      `--supplied ${spec}: name the side first, "${HERE}:" or one of the --compare labels (${labels.join(", ") || "none given"}), e.g. here:cpython=2935ns`,
    );
    bySide.set(label, { ...bySide.get(label), ...parseSupplied(spec.slice(at + 1), label) });
  }
  return bySide;
}

/** Each side's results with the readings supplied for it. */
export function withSuppliedSides(
  here: BenchResults,
  others: readonly OtherMachine[],
  supplied: ReadonlyMap<string, RuntimeReadings>,
): { here: BenchResults; others: OtherMachine[] } {
  const apply = (results: BenchResults, label: string): BenchResults => {
    const readings = supplied.get(label);
    return readings ? withSupplied(results, readings) : results;
  };
  return { here: apply(here, HERE), others: others.map((o) => ({ ...o, results: apply(o.results, o.label) })) };
}

export function renderCommand(results: BenchResults, out: string | undefined, extras: PageExtras = {}): void {
  const page = renderPage(results, extras);
  if (out) {
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, page);
  } else process.stdout.write(page);
}
