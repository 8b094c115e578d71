/**
 * `--faults` for one product: its own crash (poison pills, kill -9 and restart), the broker's
 * restart (hard, then clean), served, the model server's kill and restart, and, at-least-once, a
 * burst of load, each a full run of its own, every result written as soon as it is in.
 */
import type { Prepared, Product } from "@bench/core";
import type { BenchResults } from "../results/types.ts";
import type { BenchContext } from "../run/context.ts";
import type { RunSettings } from "../run/measure.ts";
import type { OverloadBase } from "./knees.ts";
import { runBrokerRestarts } from "./broker-restarts-run.ts";
import { runOverload } from "./overload.ts";
import { runFaults } from "./run-faults.ts";
import { runServerKill, SERVER_KILL_DEFAULTS } from "./server-kill.ts";

const firstLine = (text: string | undefined): string => (text ? ` (${text.split("\n")[0]})` : "");

export async function faultProduct(
  product: Product, prepared: Prepared, settings: RunSettings, base: OverloadBase | undefined, bench: BenchContext, results: BenchResults, save: () => void,
): Promise<void> {
  const fault = await runFaults(product, prepared, { ...settings, poisonRounds: 3 }, bench);
  bench.log(
    `== ${product.id}: faults ${fault.status}${firstLine(fault.reason)}, lost ${fault.tally?.lost ?? "?"}, duplicates ${fault.tally?.duplicated ?? "?"}`,
  );
  (results.faults ??= []).push(fault);
  save();
  if (bench.interrupted()) return;
  (results.brokerRestarts ??= []).push(...(await runBrokerRestarts(product, prepared, settings, bench)));
  save();
  if (bench.interrupted()) return;
  if (results.serving) {
    const kill = await runServerKill(product, prepared, { ...settings, ...SERVER_KILL_DEFAULTS }, bench);
    bench.log(
      `== ${product.id}: model server kill ${kill.status}${firstLine(kill.reason)}, lost ${kill.tally?.lost ?? "?"}, duplicates ` +
        `${kill.tally?.duplicated ?? "?"}, output moving again ${kill.stalledSec ?? "?"} s after the kill`,
    );
    (results.serverKills ??= []).push(kill);
    save();
  }
  // The overload asks how a row absorbs a burst, which its at-least-once faults answer; exactly-once
  // asks what a crash leaves read-committed, which the kill and the broker's restarts answer.
  if (bench.interrupted() || bench.guarantee === "exactly-once") return;
  const overload = await runOverload(
    product,
    prepared,
    { ...settings, ...(base !== undefined ? { rate: base.rate, baseFrom: base.from } : { baseFrom: "rate" as const }) },
    bench,
  );
  const workedOff = overload.workedOffSec !== undefined ? `worked off in ${overload.workedOffSec} s` : "not worked off";
  bench.log(
    `== ${product.id}: overload ${overload.status}${firstLine(overload.reason)}, peak ${overload.peakMemMb?.toFixed(0) ?? "?"} MB, ${workedOff}, ` +
      `lost ${overload.tally?.lost ?? "?"}`,
  );
  (results.overloads ??= []).push(overload);
  save();
}
