/**
 * From findings to verdicts: for each prerequisite (the bench's own and the union of what the
 * products say they need, each listed once by name) whether this machine has it, and for each
 * product "runs here" or every reason it cannot, each with its fix. Pure.
 */
import type { Prerequisite, PrerequisiteMissing } from "@bench/core";
import { blockingNeeds, figureNeeds } from "./bench-needs.ts";
import type { Findings } from "./findings.ts";
import type { ProductNeeds } from "./needs.ts";

export interface Check {
  name: string;
  have: string;
  ok: boolean;
  fix?: string;
}

export interface Problem {
  reason: string;
  fix: string;
}

export interface Verdict {
  product: string;
  problems: Problem[];
}

export interface Diagnosis {
  checks: Check[];
  products: Verdict[];
  /** Machine-wide: the bench runs, but its figures are worth less. */
  warnings: Problem[];
}

const missing = (p: Prerequisite): p is PrerequisiteMissing => !p.ok;
const problem = (p: PrerequisiteMissing): Problem => ({ reason: p.reason, fix: p.fix });
const check = (p: Prerequisite): Check => ({ name: p.name, have: p.have, ok: p.ok, ...(p.ok ? {} : { fix: p.fix }) });

/** Rows that share a need share its name: the first product's answer stands for all. */
function byName(prerequisites: readonly Prerequisite[]): Prerequisite[] {
  const seen = new Set<string>();
  return prerequisites.filter((p) => {
    if (seen.has(p.name)) return false;
    seen.add(p.name);
    return true;
  });
}

export function diagnose(f: Findings, needs: readonly ProductNeeds[]): Diagnosis {
  const blocking = blockingNeeds(f);
  const figures = figureNeeds(f);
  const products = needs.map((n) => ({ product: n.product, problems: [...blocking, ...n.prerequisites].filter(missing).map(problem) }));
  return {
    checks: [...blocking, ...byName(needs.flatMap((n) => n.prerequisites)), ...figures].map(check),
    products,
    warnings: figures.filter(missing).map(problem),
  };
}
