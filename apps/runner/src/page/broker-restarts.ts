/** The page's "Broker restarts" section, from a `bench --faults` run's broker-restart results (empty without one). */
import type { FaultTally } from "../faults/tally.ts";
import type { BrokerRestartResult } from "../results/types.ts";
import { beyondLost } from "./faults.ts";
import { int } from "./format.ts";

const sec = (x: number | undefined): string => (x === undefined ? "–" : `${x.toFixed(1)} s`);

function recoveredCell(r: BrokerRestartResult): string {
  if (r.recovered === "by-itself") return "by itself";
  if (r.recovered === "restarted") return `**restarted by the bench** ${sec(r.productRestart?.atSec)} after the stop (${r.productRestart?.why ?? ""})`;
  if (r.recovered === "none") return `**not back**, even after a restart (${r.productRestart?.why ?? ""})`;
  return "–";
}

/** An audited scenario's output: what it has of its tally and drain. */
interface Audited {
  tally?: FaultTally;
  undrained?: number;
}

/** Lost, with the ranges when any, or what was not drained; the foreign and unreadable beside it (faults.ts). */
export function lostCell(r: Audited): string {
  if (!r.tally) return "–";
  return `${lostFigure(r as Audited & { tally: FaultTally })}${beyondLost(r.tally)}`;
}

function lostFigure(r: Audited & { tally: FaultTally }): string {
  if ((r.undrained ?? 0) > 0) return `${int(r.tally.lost)} not out (${int(r.undrained ?? 0)} never consumed: not drained)`;
  if (r.tally.lost === 0) return "0";
  const ranges = r.tally.lostRanges.map(([a, b]) => (a === b ? `e${a}` : `e${a}–e${b}`)).join(", ");
  return `**${int(r.tally.lost)}** (${ranges}${r.tally.lostRanges.length >= 20 ? ", …" : ""})`;
}

function downCell(r: BrokerRestartResult): string {
  if (!r.broker) return "–";
  return `${sec(r.broker.downSec)} (stopping took ${sec(r.broker.stopSec)})`;
}

/** ✓, or the run's status and the first line of its reason. */
export function runCell(r: { status: string; reason?: string }): string {
  if (r.status === "ok") return "✓";
  return `${r.status}: ${(r.reason ?? "").split("\n")[0]}`;
}

export function renderBrokerRestarts(restarts: readonly BrokerRestartResult[] | undefined): string[] {
  if (!restarts || restarts.length === 0) return [];
  const r0 = restarts[0] as BrokerRestartResult;
  return [
    "## Broker restarts",
    "",
    `Each product at a rate below its knee; in the middle of a ${r0.settings.windowSec} s window the broker (not the product) is stopped, with SIGKILL ` +
      `(hard) or a clean stop that lets it close its logs (clean), kept down ${r0.settings.downSec} s and started again on the same port and data folder. ` +
      `The bench leaves the product alone: recovery is the time from the broker's stop until the product's output kept up with the offered rate again (90% ` +
      `of it, the next second and the next 3 s); a product that exited, or was not back within ${r0.settings.recoveryLimitSec} s, is restarted once by the ` +
      `bench, and its row says so: that is a finding about the row, not a failure of the bench. Lost = good records (ids gendata produced) never output; ` +
      `duplicates = outputs beyond the first. Broker down = from the stop until the broker answered again: its stopping, the ${r0.settings.downSec} s, and ` +
      `its start (after a SIGKILL it recovers its logs first).`,
    "",
    "| product | variant | delivery | rate/s | broker down | lost | duplicates | recovery | recovered | run |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ...restarts.map((r) =>
      `| ${[
        r.product,
        r.variant,
        r.delivery,
        int(r.settings.offeredRate),
        downCell(r),
        lostCell(r),
        r.tally ? int(r.tally.duplicated) : "–",
        sec(r.recoverySec),
        recoveredCell(r),
        runCell(r),
      ].join(" | ")} |`,
    ),
    "",
  ];
}
