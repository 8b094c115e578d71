/** The page's "Faults" section, from a `bench --faults` run's results (empty without one). */
import type { FaultTally } from "../faults/tally.ts";
import type { FaultResult } from "../results/types.ts";
import { describeOpenTransaction } from "../run/audit-transaction.ts";
import { foreignReason } from "../run/judge.ts";
import { int } from "./format.ts";

const sec = (x: number | undefined): string => (x === undefined ? "–" : `${x.toFixed(1)} s`);

/**
 * What the lost figure leaves out, said beside it: foreign records in the input (never the bench's,
 * so never lost) and a transaction still open past the audit's wait (its records unread, not lost).
 */
export function beyondLost(tally: FaultTally): string {
  const open = tally.openTransaction && !tally.openTransaction.ended ? `; ${describeOpenTransaction(tally.openTransaction)}` : "";
  return `${tally.foreign ? `; ${foreignReason(tally.foreign)}` : ""}${open}`;
}

function lostCell(f: FaultResult): string {
  if (!f.tally) return "–";
  return `${lostFigure(f as FaultResult & { tally: FaultTally })}${beyondLost(f.tally)}`;
}

function lostFigure(f: FaultResult & { tally: FaultTally }): string {
  if (f.tally.lost === 0) return "0";
  if ((f.undrained ?? 0) > 0) return `${int(f.tally.lost)} not out (${int(f.undrained ?? 0)} never consumed: not drained)`;
  const ranges = f.tally.lostRanges.map(([a, b]) => (a === b ? `e${a}` : `e${a}–e${b}`)).join(", ");
  return `**${int(f.tally.lost)}** (${ranges}${f.tally.lostRanges.length >= 20 ? ", …" : ""})`;
}

export function renderFaults(faults: readonly FaultResult[] | undefined): string[] {
  if (!faults || faults.length === 0) return [];
  const out: string[] = ["## Faults", ""];
  const f0 = faults[0] as FaultResult;
  out.push(
    `Each product at a rate below its knee: ${f0.settings.poisonRounds} malformed records of each of seven kinds (not JSON, empty, JSON missing fields, ` +
      `wrong types, a number out of range, a JSON array, binary bytes) among the records before the kill; in the middle of a ${f0.settings.windowSec} s ` +
      `window every process of the product's tree is killed with SIGKILL, and the adapter starts it again against the same topics and consumer group; the ` +
      `run ends when the backlog has drained. Lost = good records (ids gendata produced) never output; duplicates = outputs beyond the first; pills skipped ` +
      `= pills consumed and not republished (a dead-letter topic shows in extra records). Restart, first output and drained are seconds from the kill ` +
      `(drained: after the first new output, the backlog back to its size before the kill, at most one second of records). A consumer that joins its group ` +
      `again gets the partition only once the broker has expired the killed member's session (session.timeout.ms: 45 s by default in librdkafka and the Java ` +
      `client, 10 s in aiokafka), which is most of a first output's wait; a source that assigns its partition itself (as a JVM engine's connector may) waits ` +
      `for its own start instead.`,
    "",
  );
  out.push(
    [
      "| product | delivery | rate/s | survived pills | pills skipped | extra records | lost | duplicates | restart | first output | drained | run |",
      "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
      ...faults.map((f) =>
        `| ${[
          f.product,
          f.delivery,
          int(f.settings.offeredRate),
          f.survivedPills ? "yes" : "**no**",
          f.pillsSkipped === undefined ? "–" : f.passthrough ? `none of ${f.pills} (passthrough)` : `${f.pillsSkipped} of ${f.pills}`,
          f.extraRecords === undefined ? "–" : int(f.extraRecords),
          lostCell(f),
          f.tally ? int(f.tally.duplicated) : "–",
          sec(f.restartSec),
          sec(f.firstOutputSec),
          sec(f.drainedSec),
          f.status === "ok" ? "✓" : `${f.status}: ${(f.reason ?? "").split("\n")[0]}`,
        ].join(" | ")} |`,
      ),
    ].join("\n"),
    "",
  );
  for (const f of faults.filter((x) => x.lossMechanism)) out.push(`- **${f.product}** lost ${int(f.tally?.lost ?? 0)} records: ${f.lossMechanism}.`);
  const republished = (f: FaultResult): number => (f.tally?.poisonOut ?? 0) + (f.tally?.unreadable ?? 0);
  for (const f of faults.filter((x) => republished(x) > 0)) {
    const t = f.tally as NonNullable<FaultResult["tally"]>;
    const how = `${int(t.poisonOut)} of them readable as JSON, ${int(t.unreadable)} not`;
    out.push(f.passthrough
      ? `- **${f.product}** republished all ${int(republished(f))} malformed records as they came (${how}): it decodes nothing by design, so it has nothing ` +
        `to skip.`
      : `- **${f.product}** republished ${int(republished(f))} malformed records (${how}) instead of skipping them.`);
  }
  if (faults.some((f) => f.lossMechanism || republished(f) > 0)) out.push("");
  return out;
}
