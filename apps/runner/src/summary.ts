/** The lines the terminal shows after each run: the figures, and loudly what makes them not count. */
import type { RunResult } from "./results/types.ts";

const int = (n: number): string => Math.round(n).toLocaleString("en-US");

export function runSummary(r: RunResult): string {
  if (r.status === "failed") return `FAILED — ${r.reason ?? "no reason recorded"}`;
  if (r.status === "skipped") return `not run — ${r.reason ?? "no reason recorded"}`;
  const t = r.throughput;
  const d = r.delivery;
  const parts: string[] = [];
  if (r.status === "invalid") parts.push(`INVALID, not a result — ${r.reason ?? ""}`);
  if (t) {
    parts.push(
      `${int(t.consumedPerSec)}/s consumed of ${int(t.offeredPerSec)}/s offered (${t.regime}${r.settled === false ? ", unsettled" : ""}), ` +
        `cpu ${t.cpuAvg.toFixed(1)}%, ${int(t.rowsPerCore)} rows/s per core, ${t.cpuMicrosPerInference.toFixed(2)} µs CPU per inference`,
    );
  }
  if (d) parts.push(`lost ${int(d.lost)}, dup ${int(d.duplicated)}, mis-scored ${int(d.misScored ?? 0)} of ${int(d.scoresChecked)} checked`);
  const c = r.conditions;
  if (c) {
    parts.push(
      `speed index ${int(c.speedIndexBefore)} → ${int(c.speedIndexAfter)}, foreign load ${c.foreignCpuAvg.toFixed(1)}%, steal ${c.stealAvg.toFixed(1)}%`,
    );
    if (c.noisy) parts.push(`⚠ NOISY MACHINE — ${c.noisyBecause.join("; ")}: these figures do not count`);
  }
  return parts.join("\n   ");
}
