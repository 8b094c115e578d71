/**
 * How the runtime yardstick carries a comparison of two machines: the "Across machines" section
 * of `render --compare` twice, by V8's index alone and by each row's runtime mix, with runtime
 * readings supplied for results that have none (both sides by the same probe):
 *   pnpm --filter runner exec tsx src/tools/yardstick-check.ts HERE.json[,MORE.json] THERE.json[,MORE.json] \
 *     [--here cpython=2877ns] [--there cpython=2330ns] [--label intel-xeon]
 */
import { parseArgs } from "node:util";
import { acrossMachinesSection } from "../page/across-machines.ts";
import { readResults } from "../results/files.ts";
import type { BenchResults } from "../results/types.ts";
import { parseSupplied, withSupplied } from "../yardstick/supplied.ts";

/** Every run read by V8's index alone: its runtime readings dropped. */
const v8Only = (r: BenchResults): BenchResults => ({ ...r, runs: r.runs.map(({ yardstick: _dropped, ...run }) => run) });

function main(): void {
  const { values, positionals } = parseArgs(
    { allowPositionals: true, options: { here: { type: "string" }, there: { type: "string" }, label: { type: "string", default: "other machine" } } },
  );
  const [herePaths, therePaths] = positionals;
  if (!herePaths || !therePaths) throw new Error(
    "usage: yardstick-check.ts HERE.json[,…] THERE.json[,…] [--here cpython=NNNNns] [--there cpython=NNNNns] [--label NAME]",
  );
  const here = readResults(herePaths.split(","));
  const there = readResults(therePaths.split(","));
  const label = values.label as string;
  console.log("# By V8's index alone\n");
  console.log(acrossMachinesSection(v8Only(here), [{ label, results: v8Only(there) }]).slice(2).join("\n"));
  console.log("# By each row's runtime mix\n");
  const hereMixed = values.here ? withSupplied(here, parseSupplied(values.here, "here")) : here;
  const thereMixed = values.there ? withSupplied(there, parseSupplied(values.there, label)) : there;
  console.log(acrossMachinesSection(hereMixed, [{ label, results: thereMixed }]).slice(2).join("\n"));
}

main();
