/**
 * `bench doctor`, and the same verdicts before a bench for the products it was asked to run.
 * The products come from the adapter folders and say what they need themselves.
 */
import { repoRoot, type Product } from "@bench/core";
import { adaptersDir, discoverIn } from "../run/discover.ts";
import { diagnose, type Diagnosis } from "./assess.ts";
import { formatDeclaredEnv, readDeclared } from "./declared.ts";
import { gatherNeeds } from "./needs.ts";
import { machineLoad, probeMachine } from "./probe.ts";
import { blockedLines, formatDiagnosis } from "./report.ts";

/** The load is read first: loading the adapters and asking them is work of the doctor's own. */
async function examine(dir: string, pick: (all: Product[]) => Product[] | undefined, warn: (line: string) => void): Promise<Diagnosis | undefined> {
  const load = await machineLoad();
  const products = pick((await discoverIn(dir, warn)).map((d) => d.product));
  if (!products) return undefined;
  const [machine, needs] = await Promise.all([probeMachine(load), gatherNeeds(products)]);
  return diagnose(machine, needs);
}

/** `dir`: where the adapter folders are (a test points it at a throwaway one). */
export async function doctorCommand(
  dir: string = adaptersDir(repoRoot()),
  print: (text: string) => void = (t) => void process.stdout.write(t),
): Promise<number> {
  const diagnosis = await examine(dir, (all) => all, (line) => console.error(line));
  if (diagnosis) print(formatDiagnosis(diagnosis) + formatDeclaredEnv(readDeclared(dir), process.env));
  return 0;
}

/** Before a bench: the same reasons, for the chosen products only (the bench itself still decides, through each prepare()). */
export async function preflight(spec: string | undefined, log: (line: string) => void): Promise<void> {
  const wanted = spec ? spec.split(",").map((p) => p.trim()).filter(Boolean) : undefined;
  const diagnosis = await examine(adaptersDir(repoRoot()), (all) => {
    // An id no adapter defines is the bench's to reject (exit 2, with the known ids): no probing first.
    if (wanted && wanted.some((id) => !all.some((p) => p.id === id))) return undefined;
    return wanted ? all.filter((p) => wanted.includes(p.id)) : all;
  }, () => undefined);
  if (diagnosis) for (const line of blockedLines(diagnosis, diagnosis.products.map((v) => v.product))) log(line);
}
