/** The page's "Model server kills" section, from a `bench --faults --serving served` run's server-kill results (empty without one). */
import type { ServerKillResult } from "../results/types.ts";
import { lostCell, runCell } from "./broker-restarts.ts";
import { int } from "./format.ts";

const sec = (x: number | undefined): string => (x === undefined ? "–" : `${x.toFixed(1)} s`);

export function renderServerKills(kills: readonly ServerKillResult[] | undefined): string[] {
  if (!kills || kills.length === 0) return [];
  const k0 = kills[0] as ServerKillResult;
  return [
    "## Model server kills",
    "",
    `Each served row at a rate below its knee; in the middle of a ${k0.settings.windowSec} s window the bench's model server (not the row) is killed ` +
      `with SIGKILL, its whole process tree at once, kept down ${k0.settings.downSec} s and started again on the same ports. The bench leaves the row ` +
      "alone: it waits or retries on its own, and a row that exits fails its run. Server down = from the kill until the server answered ready again " +
      "(its start included). Stalled = from the kill until the row's output moved again once the server was back; recovery = from the kill until the " +
      "output kept up with the offered rate again (90% of it, the next second and the next 3 s). Lost = good records (ids gendata produced) never " +
      `output, and a row that lost any fails the bench (exit 5); duplicates = outputs beyond the first. A row not moving within ` +
      `${k0.settings.recoveryLimitSec} s of the server's return fails its run.`,
    "",
    "| product | delivery | rate/s | server down | stalled | recovery | lost | duplicates | run |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ...kills.map((k) =>
      `| ${[
        k.product,
        k.delivery,
        int(k.settings.offeredRate),
        sec(k.server?.downSec),
        sec(k.stalledSec),
        sec(k.recoverySec),
        lostCell(k),
        k.tally ? int(k.tally.duplicated) : "–",
        runCell(k),
      ].join(" | ")} |`,
    ),
    "",
  ];
}
