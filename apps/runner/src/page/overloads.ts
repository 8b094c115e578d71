/** The page's "Overload" section, from a `bench --faults` run's overload results (empty without one). */
import type { OverloadResult } from "../results/types.ts";
import { lostCell } from "./broker-restarts.ts";
import { int } from "./format.ts";

const mb = (x: number | undefined): string => (x === undefined ? "–" : `${Math.round(x)} MB`);

function memoryCell(r: OverloadResult): string {
  if (r.peakMemMb === undefined) return "–";
  const growth = r.baselineMemMb !== undefined && r.baselineMemMb > 0
    ? ` (${mb(r.baselineMemMb)} before, ×${(r.peakMemMb / r.baselineMemMb).toFixed(2)})`
    : "";
  return `${mb(r.peakMemMb)}${growth}`;
}

function burstCell(r: OverloadResult): string {
  const asked = int(r.settings.burstRate);
  if (r.burstOfferedPerSec === undefined) return asked;
  // gendata shares two cores with the product: a burst it could not offer in full says so.
  const short = r.burstOfferedPerSec < r.settings.burstRate * 0.95 ? ` (gendata offered ${int(r.burstOfferedPerSec)})` : "";
  return `${asked}${short}`;
}

function workedOffCell(r: OverloadResult): string {
  if (r.workedOffSec !== undefined) return `${r.workedOffSec.toFixed(1)} s (${int(r.backlogAfterBurst ?? 0)} waiting at the burst's end)`;
  if (r.backlogAfterBurst === undefined) return "–";
  return `**not within ${r.settings.workOffLimitSec} s** (${int(r.backlogAfterBurst)} waiting at the burst's end)`;
}

function upCell(r: OverloadResult): string {
  if (r.stayedUp === undefined) return "–";
  return r.stayedUp ? "yes" : `**no**: restarted by the bench ${r.productRestart?.atSec ?? "?"} s in (${r.productRestart?.why ?? ""})`;
}

const runCell = (r: OverloadResult): string => (r.status === "ok" ? "✓" : `${r.status}: ${(r.reason ?? "").split("\n")[0]}`);

export function renderOverloads(overloads: readonly OverloadResult[] | undefined): string[] {
  if (!overloads || overloads.length === 0) return [];
  const r0 = overloads[0] as OverloadResult;
  return [
    "## Overload",
    "",
    `Each product at its base rate (where the bench was given a knee search's results, its confirmed knee or the share of its knee its rounds ` +
      `ran at; else its faults rate: the base column says which), then gendata at ` +
      `${r0.settings.burstRate / r0.settings.offeredRate}× that for ${r0.settings.burstSec} s, then back at the base rate. Peak memory: PSS of the ` +
      `product's tree from the burst on, against its median in the 10 s before. Worked off: seconds from the burst's end until the backlog was back at its ` +
      `level before the burst (never under one second of the base rate), watched for at most ${r0.settings.workOffLimitSec} s: at its knee a row has little ` +
      `headroom left to work a backlog off. Lost and duplicates: every output of the whole run audited after a drain.`,
    "",
    "| product | delivery | base/s | burst/s | peak memory | worked off | stayed up | lost | duplicates | run |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ...overloads.map((r) =>
      `| ${[
        r.product,
        r.delivery,
        `${int(r.settings.offeredRate)} (${r.settings.baseFrom})`,
        burstCell(r),
        memoryCell(r),
        workedOffCell(r),
        upCell(r),
        lostCell(r),
        r.tally ? int(r.tally.duplicated) : "–",
        runCell(r),
      ].join(" | ")} |`,
    ),
    "",
  ];
}
