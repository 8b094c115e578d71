/**
 * A faults scenario's one restart of a product that exited or stopped working: kill -9 of what is
 * left of its tree, then the adapter starts it again on the same topics and consumer group.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { killTree } from "@bench/core";
import type { Phase, Tick } from "../results/types.ts";
import type { RunSession } from "../run/session.ts";
import type { RunTicker } from "../run/ticker.ts";

export async function restartProduct(session: RunSession, ticker: RunTicker): Promise<void> {
  session.expectExit();
  const running = session.running;
  if (running) {
    killTree(running.rootPids());
    await Promise.race([running.exited, new Promise((r) => setTimeout(r, 15_000))]);
  }
  session.crashed = undefined;
  const restartDir = join(session.plan.runDir, "restart");
  mkdirSync(restartDir, { recursive: true });
  await session.start(restartDir);
  ticker.restartHangClock();
}

/**
 * One tick of a scenario that restarts a product which exited: `restart` restarts it and resolves,
 * or returns undefined when the scenario does not (already restarted once, or the exit is not its
 * to forgive), and the tick's error then ends the run.
 */
export async function tickRestartingOnce(
  session: RunSession,
  ticker: RunTicker,
  phase: Phase,
  restart: (crashed: string) => Promise<void> | undefined,
): Promise<Tick> {
  for (;;) {
    try {
      return await ticker.next(phase);
    } catch (error) {
      const crashed = session.crashed;
      const restarting = crashed !== undefined && !session.bench.interrupted() ? restart(crashed) : undefined;
      if (restarting === undefined) throw error;
      await restarting;
    }
  }
}
