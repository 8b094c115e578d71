/**
 * The broker-restart scenario of one product (issue 30): fresh topics; the product started and
 * verified; gendata at the offered rate; mid-window the broker (not the product) stopped, by
 * SIGKILL or a clean stop, kept down a few seconds and started again on the same port and data;
 * then the ticks say when the output is back at the offered rate. The bench does not touch the
 * product unless it exited or has not recovered within the limit: then it is restarted once, and
 * the result says so (a finding about the row, not a failure of the bench). Drain and the full
 * audit of the output topic (lost, duplicated) follow, as in run-faults.ts.
 */
import type { Prepared, Product } from "@bench/core";
import type { BrokerRestartResult, Phase, Tick } from "../results/types.ts";
import type { BenchContext } from "../run/context.ts";
import { planRun, RunSession, type RunBasics } from "../run/session.ts";
import type { RunTicker } from "../run/ticker.ts";
import { drainAndTally } from "./audit-output.ts";
import { RECOVERY_RULE, recoverySec } from "./recovery.ts";
import { restartProduct, tickRestartingOnce } from "./restart-product.ts";
import { inScenarioFrame, scenarioRow, type Topics } from "./scenario-frame.ts";

export interface BrokerRestartSettings extends RunBasics {
  hard: boolean;
  /** How long the broker stays down before it is started again. */
  downSec: number;
  /** Seconds from the broker's stop the product has to recover by itself before the bench restarts it. */
  recoveryLimitSec: number;
  /** Leave the topics for the caller to read (and delete): a test re-counts from them. */
  keepTopics?: boolean;
}

export const BROKER_RESTART_DEFAULTS = { downSec: 5, recoveryLimitSec: 120 } as const;

function emptyResult(product: Product, prepared: Prepared, settings: BrokerRestartSettings): BrokerRestartResult {
  const { rate, warmupSec, windowSec, parallelism, seed, downSec, recoveryLimitSec } = settings;
  return {
    ...scenarioRow(product, prepared),
    variant: settings.hard ? "hard" : "clean",
    status: "failed",
    startedAt: new Date().toISOString(),
    settings: { offeredRate: rate, warmupSec, windowSec, parallelism, seed, downSec, recoveryLimitSec },
    ticks: [],
  };
}

export async function runBrokerRestart(
  product: Product,
  prepared: Prepared,
  settings: BrokerRestartSettings,
  bench: BenchContext,
): Promise<BrokerRestartResult & Topics> {
  const result = emptyResult(product, prepared, settings);
  if (!bench.restartBroker) {
    result.status = "not-run";
    result.reason = "not run here: the broker was given with --bootstrap, and the bench restarts only a broker it started itself";
    return result;
  }
  const plan = planRun(product.id, `broker-restart-${result.variant}`, bench.resultsDir);
  const session = new RunSession(product, prepared, plan, { ...settings }, bench);
  return inScenarioFrame(
    session,
    result,
    { keepTopics: settings.keepTopics, notFaulted: "its broker was not restarted" },
    () => restartPhases(new Scenario(session, result, settings)),
  );
}

/** What the phases share: the session, its ticker once gendata runs, the result being filled. */
class Scenario {
  ticker!: RunTicker;
  /** The broker's stop on the ticker's clock (undefined before it). */
  stoppedAt: number | undefined;

  constructor(
    readonly session: RunSession,
    readonly result: BrokerRestartResult,
    readonly settings: BrokerRestartSettings,
  ) {}

  /** One tick; a product that exited after the broker's stop is restarted once (and the result says so), a second exit ends the run. */
  tick(phase: Phase): Promise<Tick> {
    // A generator that gave up fails the scenario with its reason: the product is not to blame for an input that stopped.
    const gaveUp = this.session.gendata?.gaveUp();
    if (gaveUp !== undefined) return Promise.reject(new Error(gaveUp));
    // An exit before the broker's stop is the product's own failure, not a reaction to the restart.
    return tickRestartingOnce(
      this.session,
      this.ticker,
      phase,
      (crashed) => (this.stoppedAt === undefined || this.result.productRestart ? undefined : this.restartProduct(`it ${crashed}`)),
    );
  }

  /** The product restarted once (restart-product.ts), the result saying when and why. */
  async restartProduct(why: string): Promise<void> {
    this.result.productRestart = { atSec: round1(this.ticker.elapsed() - (this.stoppedAt ?? 0)), why };
    await restartProduct(this.session, this.ticker);
  }
}

async function restartPhases(s: Scenario): Promise<void> {
  const { session, settings, result } = s;
  // The hang limit must not beat the recovery limit: a product slow to come back is the finding.
  const { feed, ticker } = session.feed({ hangSec: settings.hangSec + settings.recoveryLimitSec, brokerMayGoAway: true });
  s.ticker = ticker;
  result.ticks = ticker.ticks;
  const fed = (): number => feed.latest()?.t ?? 0;
  const restartAtSec = settings.warmupSec + Math.floor(settings.windowSec / 2);
  while (fed() < restartAtSec) await s.tick(fed() < settings.warmupSec ? "settle" : "window");

  await restartBroker(s);
  await watchRecovery(s);
  while (fed() < settings.warmupSec + settings.windowSec) await s.tick("window");

  await drainAndTally(session, feed, { tick: (phase) => s.tick(phase), elapsed: () => s.ticker.elapsed() }, settings.drainTimeoutSec, result);
}

/** The broker stopped and started again while the ticks go on (with no reading while it is down). */
async function restartBroker(s: Scenario): Promise<void> {
  const { session, settings, result } = s;
  const restart = session.bench.restartBroker as NonNullable<BenchContext["restartBroker"]>;
  const stoppedAt = s.ticker.elapsed();
  s.stoppedAt = stoppedAt;
  let outcome: { stopSec: number; downSec: number } | { error: Error } | undefined;
  const restarting = restart({ hard: settings.hard, downMs: settings.downSec * 1000 }).then(
    (r) => (outcome = { stopSec: (r.stoppedAt - r.downAt) / 1000, downSec: (r.upAt - r.downAt) / 1000 }),
    (error: Error) => (outcome = { error }),
  );
  try {
    while (outcome === undefined) await s.tick("window");
  } catch (error) {
    // The run ends here (interrupted, the product gone twice): the teardown needs the broker back first.
    await restarting;
    throw error;
  }
  if ("error" in outcome) throw outcome.error;
  result.broker = { stoppedAtSec: round1(stoppedAt), stopSec: round1(outcome.stopSec), downSec: round1(outcome.downSec) };
}

/** Ticks until the output keeps up again; past the limit the product is restarted once, and given the limit again. */
async function watchRecovery(s: Scenario): Promise<void> {
  const { settings, result } = s;
  const rule = { ...RECOVERY_RULE, rate: settings.rate };
  const stoppedAt = s.stoppedAt as number;
  const feed = s.session.gendata;
  const sentWhenBack = feed?.latest()?.sent ?? 0;
  // A restarted product (it exited, or was not back in time) gets the whole limit again from its restart.
  const deadline = (): number => stoppedAt + (result.productRestart?.atSec ?? 0) + settings.recoveryLimitSec;
  for (;;) {
    await s.tick("window");
    const back = recoverySec(s.ticker.ticks, stoppedAt, rule);
    if (back !== undefined) {
      result.recoverySec = back;
      result.recovered = result.productRestart ? "restarted" : "by-itself";
      return;
    }
    if (s.ticker.elapsed() < deadline()) continue;
    // Output that is not back because the input is not is gendata's failure, not the product's: no restart of the product for it.
    const report = feed?.latest();
    if (report && report.delivered <= sentWhenBack) {
      throw new Error(
        `gendata did not recover from the broker's restart: ${report.delivered} records acknowledged, none since the broker came back ` +
          `(last error: ${report.lastError ?? "none"})`,
      );
    }
    if (result.productRestart) {
      result.recovered = "none";
      return;
    }
    await s.restartProduct(`its output was not back at the offered rate ${settings.recoveryLimitSec} s after the broker's stop`);
  }
}


function round1(x: number): number {
  return Math.round(x * 10) / 10;
}
