/**
 * Waiting out a slow minute. On this bench's machines the speed index falls by a fifth to a third
 * for a minute or two with no steal or foreign load to show for it, and a step run again at once
 * meets the same minute. So before a saturated step that ran markedly slower is run again, the bench
 * reads the speed index with the product idle until it is back within MACHINE_SLOWER_SHARE of
 * the usual speed, for SPEED_WAIT_MAX_SEC at the most, and the step's record says how long it waited.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { BenchContext } from "../run/context.ts";
import { speedReadings } from "../run/speed-index.ts";
import { MACHINE_SLOWER_SHARE, SPEED_WAIT_MAX_SEC, SPEED_WAIT_PAUSE_SEC } from "./constants.ts";

/** What a knee search asks of the bench about the machine's speed. */
export interface BenchSpeed {
  /** The speed the bench usually reads lately, across rows (speed-index.ts' SpacedSpeedIndex); undefined: too few readings yet. */
  usual(): number | undefined;
  /** Waits while the machine reads markedly slower than `usual` (bounded); returns a note for the step's record. */
  wait(usual: number): Promise<string>;
}

export interface SpeedWaitParts {
  /** A fresh speed index reading. */
  read(): Promise<number>;
  sleep(ms: number): Promise<void>;
  now(): number;
  /** Why the bench is stopping, if it is: the wait ends at once. */
  interrupted(): string | undefined;
}

export interface SpeedWaited {
  waitedSec: number;
  /** The last reading. */
  speed: number;
  back: boolean;
}

/** Readings until one is within MACHINE_SLOWER_SHARE of `usual`, the bench is interrupted, or `maxSec` have passed. */
export async function waitForSpeed(usual: number, parts: SpeedWaitParts, maxSec = SPEED_WAIT_MAX_SEC): Promise<SpeedWaited> {
  const started = parts.now();
  const waited = (): number => Math.round((parts.now() - started) / 1000);
  for (;;) {
    const speed = await parts.read();
    if (speed >= usual * (1 - MACHINE_SLOWER_SHARE)) return { waitedSec: waited(), speed, back: true };
    if (parts.interrupted() !== undefined || parts.now() - started >= maxSec * 1000) return { waitedSec: waited(), speed, back: false };
    await parts.sleep(SPEED_WAIT_PAUSE_SEC * 1000);
  }
}

const index = (n: number): string => Math.round(n).toLocaleString("en-US");

/** "run again once the speed index was back at 540,123 (after 12 s)", or why it was run again without. */
export function speedWaitNote(w: SpeedWaited): string {
  if (w.back) {
    return w.waitedSec === 0
      ? `run again at once (speed index back at ${index(w.speed)})`
      : `run again once the speed index was back at ${index(w.speed)} (after ${w.waitedSec} s idle)`;
  }
  return `run again after ${w.waitedSec} s idle without the machine coming back (speed index ${index(w.speed)})`;
}

/** The bench's usual speed and its wait: its spaced readings (the next step's reading before reuses the last), logged. */
export function benchSpeed(bench: Pick<BenchContext, "log" | "interrupted" | "speedIndex">, productId: string): BenchSpeed {
  const readings = speedReadings(bench);
  const wait = async (usual: number): Promise<string> => {
    bench.log(
      `== ${productId}: the machine ran markedly slower than its usual speed index of ${index(usual)}: ` +
        `waiting up to ${SPEED_WAIT_MAX_SEC} s for it to come back before the step runs again`,
    );
    const w = await waitForSpeed(usual, { read: () => readings.after(), sleep: (ms) => sleep(ms), now: Date.now, interrupted: () => bench.interrupted() });
    const note = speedWaitNote(w);
    bench.log(`== ${productId}: ${note}`);
    return note;
  };
  return { usual: () => readings.usual?.(), wait };
}
