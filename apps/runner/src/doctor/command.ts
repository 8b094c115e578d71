import { diagnose, KNOWN_PRODUCTS } from "./assess.ts";
import { probe } from "./probe.ts";
import { blockedLines, formatDiagnosis } from "./report.ts";

export async function doctorCommand(): Promise<number> {
  process.stdout.write(formatDiagnosis(diagnose(await probe())));
  return 0;
}

/** Before a bench: the same reasons, for the chosen products only (the bench itself still decides, through each prepare()). */
export async function preflight(products: string | undefined, log: (line: string) => void): Promise<void> {
  const chosen = products ? products.split(",").map((p) => p.trim()).filter(Boolean) : [...KNOWN_PRODUCTS];
  // An id the doctor does not know is the bench's to reject (exit 2, with the known ids): no probing first.
  if (chosen.some((id) => !(KNOWN_PRODUCTS as readonly string[]).includes(id))) return;
  for (const line of blockedLines(diagnose(await probe(), KNOWN_PRODUCTS), chosen)) log(line);
}
