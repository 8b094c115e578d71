/**
 * `--faults`' broker restarts of one product: the hard variant (SIGKILL), then the clean one,
 * each a full run of its own at the faults run's rate and window.
 */
import type { Prepared, Product } from "@bench/core";
import type { BrokerRestartResult } from "../results/types.ts";
import type { BenchContext } from "../run/context.ts";
import type { RunBasics } from "../run/session.ts";
import { BROKER_RESTART_DEFAULTS, runBrokerRestart } from "./broker-restart.ts";

export async function runBrokerRestarts(product: Product, prepared: Prepared, basics: RunBasics, bench: BenchContext): Promise<BrokerRestartResult[]> {
  const results: BrokerRestartResult[] = [];
  for (const hard of [true, false]) {
    if (bench.interrupted()) break;
    const run = await runBrokerRestart(product, prepared, { ...basics, ...BROKER_RESTART_DEFAULTS, hard }, bench);
    bench.log(
      `== ${product.id}: broker restart (${run.variant}) ${run.status}${run.reason ? ` (${run.reason.split("\n")[0]})` : ""}, lost ` +
        `${run.tally?.lost ?? "?"}, duplicates ${run.tally?.duplicated ?? "?"}, back after ${run.recoverySec ?? "?"} s, ${run.recovered ?? "not recovered"}`,
    );
    results.push(run);
    // A user's broker is not restarted: one "not run here" says so for both variants.
    if (run.status === "not-run") break;
  }
  return results;
}
