/**
 * What the bench's exit code tells a script. Skipped rows (a product that cannot run on this
 * machine, with its reason on the page) do not change it; everything that ran does.
 */
import type { Guarantee } from "@bench/core";
import type { FaultTally } from "./faults/tally.ts";
import type { BrokerRestartResult, FaultResult, OverloadResult, RunResult, ServerKillResult } from "./results/types.ts";

export const EXIT = {
  /** Every run that ran is valid and was measured on a quiet machine. */
  ok: 0,
  /** The bench itself could not run (e.g. the broker would not start), or its broker stopped answering mid-bench. */
  couldNotRun: 1,
  /** Bad input: an unknown flag, product or rate. */
  badInput: 2,
  /** At least one run failed (crashed, hung, would not start) or was invalid (did not do the work). */
  failedOrInvalid: 3,
  /** Every run is valid, but at least one was measured on a noisy machine. */
  noisy: 4,
  /**
   * A fault run (`--faults`) lost records, or under `--guarantee exactly-once` duplicated one: a
   * product's delivery claim did not hold under kill -9, a broker restart or the model server's kill.
   */
  faultLoss: 5,
  /** Interrupted by Ctrl-C or SIGTERM; the results so far are kept. */
  interrupted: 130,
} as const;

/** `scenarios`: the broker restarts, overload runs and model-server kills of a `--faults` bench. */
export function exitCodeFor(
  runs: readonly RunResult[],
  interrupted: boolean,
  faults: readonly FaultResult[] = [],
  scenarios: ReadonlyArray<BrokerRestartResult | OverloadResult | ServerKillResult> = [],
  guarantee: Guarantee = "at-least-once",
  brokerGone = false,
): number {
  if (interrupted) return EXIT.interrupted;
  // Lost records outrank a failed run: the loss is the finding a script must not miss.
  // (An undrained run's missing records are not counted as lost: it is invalid, exit 3.)
  const broken = (tally: FaultTally | undefined): boolean =>
    (tally?.lost ?? 0) > 0 || (guarantee === "exactly-once" && (tally?.duplicated ?? 0) > 0);
  if ([...faults, ...scenarios].some((f) => f.status === "ok" && broken(f.tally))) return EXIT.faultLoss;
  // A broker that cannot be reached ended the bench: the rows after it never ran.
  if (brokerGone) return EXIT.couldNotRun;
  if (faults.some((f) => f.status !== "ok")) return EXIT.failedOrInvalid;
  // A broker the bench may not restart (the user's) is "not run here", not a failure; a product the
  // bench had to restart is a finding on the page, not a failure either.
  if (scenarios.some((r) => r.status === "failed" || r.status === "invalid")) return EXIT.failedOrInvalid;
  if (runs.some((r) => r.status === "failed" || r.status === "invalid")) return EXIT.failedOrInvalid;
  if (runs.some((r, i) => r.conditions?.noisy && !repeatedQuietly(runs, i))) return EXIT.noisy;
  return EXIT.ok;
}

/** A sweep runs a noisy step again: a later quiet, valid run of the product at the same rate replaces it. */
function repeatedQuietly(runs: readonly RunResult[], index: number): boolean {
  const noisy = runs[index] as RunResult;
  return runs.slice(index + 1).some(
    (r) => r.product === noisy.product && r.settings?.offeredRate === noisy.settings?.offeredRate && r.status === "ok" && !r.conditions?.noisy,
  );
}
