/** The doctor's printout: what this machine has, then per product "runs here" or why not and the fix. */
import type { Diagnosis } from "./assess.ts";

function columns(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length)));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join("  ").trimEnd()).join("\n");
}

export function formatDiagnosis(d: Diagnosis): string {
  const out: string[] = [];
  out.push(columns([["prerequisite", "this machine", "status", "fix"], ...d.checks.map((c) => [c.name, c.have, c.ok ? "ok" : "MISSING", c.fix ?? ""])]));
  out.push("");
  out.push(
    columns([
      ["product", "verdict"],
      ...d.products.map((v) => [v.product, v.problems.length === 0 ? "runs here" : v.problems.map((p) => `${p.reason} — fix: ${p.fix}`).join("; ")]),
    ]),
  );
  if (d.warnings.length > 0) {
    out.push("", "The bench runs, but its figures are worth less:");
    for (const w of d.warnings) out.push(`- ${w.reason} — fix: ${w.fix}`);
  }
  return `${out.join("\n")}\n`;
}

/** One line per chosen product that will not run, for the bench to print before it starts. */
export function blockedLines(d: Diagnosis, chosen: readonly string[]): string[] {
  return d.products
    .filter((v) => chosen.includes(v.product) && v.problems.length > 0)
    .map((v) => `doctor: ${v.product} will not run here: ${v.problems.map((p) => `${p.reason} (fix: ${p.fix})`).join("; ")}`)
    .concat(d.warnings.map((w) => `doctor: ${w.reason} (fix: ${w.fix})`));
}
