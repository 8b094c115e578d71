/**
 * The model server's kill of one served row: fresh topics; the row started and verified; gendata
 * at the offered rate; mid-window the bench's model server killed with SIGKILL (its whole tree),
 * kept down a few seconds and started again on the same ports. The row is left alone: it waits or
 * retries on its own, and a row that exits fails the run with its log. The ticks say how long it
 * stalled (from the kill until its output moved again once the server was back) and when it kept
 * up again; drain and the full audit of the output topic (lost, duplicated) follow, as after a
 * broker restart.
 */
import type { Prepared, Product } from "@bench/core";
import type { ServerKillResult, Tick } from "../results/types.ts";
import type { BenchContext } from "../run/context.ts";
import { planRun, RunSession, type RunBasics } from "../run/session.ts";
import { drainAndTally } from "./audit-output.ts";
import { RECOVERY_RULE, recoverySec } from "./recovery.ts";
import { inScenarioFrame, scenarioRow, type Topics } from "./scenario-frame.ts";

export interface ServerKillSettings extends RunBasics {
  /** How long the server stays down before it is started again. */
  downSec: number;
  /** Seconds from the server's restart the row has to put out anything again; past it the run fails. */
  recoveryLimitSec: number;
  /** Leave the topics for the caller to read (and delete): a test re-counts from them. */
  keepTopics?: boolean;
}

export const SERVER_KILL_DEFAULTS = { downSec: 5, recoveryLimitSec: 120 } as const;

export const USER_SERVER_NOT_KILLED = "not run here: the model server was given with --model-server, and the bench kills only a server it started itself";

function emptyResult(product: Product, prepared: Prepared, settings: ServerKillSettings): ServerKillResult {
  const { rate, warmupSec, windowSec, parallelism, seed, downSec, recoveryLimitSec } = settings;
  return {
    ...scenarioRow(product, prepared),
    status: "failed",
    startedAt: new Date().toISOString(),
    settings: { offeredRate: rate, warmupSec, windowSec, parallelism, seed, downSec, recoveryLimitSec },
    ticks: [],
  };
}

/**
 * Seconds from `killedAt` to the first tick after `upAt` (both on the ticks' clock) whose output
 * is past the last reading taken at or before `upAt`: the row's output moving again on the
 * restarted server. Undefined while it has not.
 */
export function stalledSec(ticks: readonly Pick<Tick, "t" | "outputEnd" | "noReading">[], killedAt: number, upAt: number): number | undefined {
  const read = ticks.filter((t) => !t.noReading);
  const baseline = read.filter((t) => t.t <= upAt).at(-1);
  if (baseline === undefined) return undefined;
  const moved = read.find((t) => t.t > upAt && t.outputEnd > baseline.outputEnd);
  return moved === undefined ? undefined : Math.round((moved.t - killedAt) * 10) / 10;
}

export async function runServerKill(
  product: Product,
  prepared: Prepared,
  settings: ServerKillSettings,
  bench: BenchContext,
): Promise<ServerKillResult & Topics> {
  const result = emptyResult(product, prepared, settings);
  if (!bench.killModelServer) {
    result.status = "not-run";
    result.reason = USER_SERVER_NOT_KILLED;
    return result;
  }
  const plan = planRun(product.id, "server-kill", bench.resultsDir);
  const session = new RunSession(product, prepared, plan, { ...settings }, bench);
  return inScenarioFrame(session, result, { keepTopics: settings.keepTopics, notFaulted: "its model server was not killed" }, () =>
    killPhases(session, result, settings, bench.killModelServer as Kill));
}

type Kill = NonNullable<BenchContext["killModelServer"]>;

async function killPhases(session: RunSession, result: ServerKillResult, settings: ServerKillSettings, kill: Kill): Promise<void> {
  // The hang limit must not beat the recovery limit: a row slow to come back is the finding.
  const { feed, ticker } = session.feed({ hangSec: settings.hangSec + settings.downSec + settings.recoveryLimitSec });
  result.ticks = ticker.ticks;
  const fed = (): number => feed.latest()?.t ?? 0;
  const killAtSec = settings.warmupSec + Math.floor(settings.windowSec / 2);
  while (fed() < killAtSec) await ticker.next(fed() < settings.warmupSec ? "settle" : "window");

  const killedAt = ticker.elapsed();
  let outcome: { downSec: number } | { error: Error } | undefined;
  const restarting = kill({ downMs: settings.downSec * 1000 }).then(
    (r) => (outcome = { downSec: (r.upAt - r.killedAt) / 1000 }),
    (error: Error) => (outcome = { error }),
  );
  try {
    while (outcome === undefined) await ticker.next("window");
  } catch (error) {
    // The row ended the run while the server was down: the server is back before the teardown.
    await restarting;
    throw error;
  }
  if ("error" in outcome) throw new Error(`the model server did not come back after its kill: ${outcome.error.message}`);
  const upAt = killedAt + outcome.downSec;
  result.server = { killedAtSec: round1(killedAt), downSec: round1(outcome.downSec) };
  ticker.restartHangClock();

  while (result.stalledSec === undefined) {
    await ticker.next("window");
    const stalled = stalledSec(ticker.ticks, killedAt, upAt);
    if (stalled !== undefined) result.stalledSec = stalled;
    else if (ticker.elapsed() - upAt > settings.recoveryLimitSec) {
      throw new Error(`its output did not move in the ${settings.recoveryLimitSec} s after the model server was back (the row was left alone)`);
    }
  }
  // gendata feeds on until the output keeps up again (or the limit): once it stops, no output can keep up with a rate no longer offered.
  const rule = { ...RECOVERY_RULE, rate: settings.rate };
  while (fed() < settings.warmupSec + settings.windowSec || (result.recoverySec === undefined && ticker.elapsed() - upAt <= settings.recoveryLimitSec)) {
    await ticker.next("window");
    const back = result.recoverySec ?? recoverySec(ticker.ticks, killedAt, rule);
    if (back !== undefined) result.recoverySec = back;
  }
  await drainAndTally(session, feed, { tick: (phase) => ticker.next(phase), elapsed: () => ticker.elapsed() }, settings.drainTimeoutSec, result);
}

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}
