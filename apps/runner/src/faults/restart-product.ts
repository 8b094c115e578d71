/**
 * A faults scenario's one restart of a product that exited or stopped working: kill -9 of what is
 * left of its tree, then the adapter starts it again on the same topics and consumer group.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { processTree } from "@bench/core";
import type { RunSession } from "../run/session.ts";
import type { RunTicker } from "../run/ticker.ts";

export async function restartProduct(session: RunSession, ticker: RunTicker): Promise<void> {
  session.expectExit();
  const running = session.running;
  if (running) {
    for (const p of processTree(running.rootPids())) {
      try {
        process.kill(p.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
    await Promise.race([running.exited, new Promise((r) => setTimeout(r, 15_000))]);
  }
  session.crashed = undefined;
  const restartDir = join(session.plan.runDir, "restart");
  mkdirSync(restartDir, { recursive: true });
  await session.start(restartDir);
  ticker.restartHangClock();
}
