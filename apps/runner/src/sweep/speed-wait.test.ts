import { MACHINE_SLOWER_SHARE, SPEED_WAIT_MAX_SEC, SPEED_WAIT_PAUSE_SEC } from "./constants.ts";
import { speedWaitNote, waitForSpeed, type SpeedWaitParts } from "./speed-wait.ts";

/** A clock that moves only when the wait sleeps (and a reading takes `readMs`), and readings in turn. */
function machine(readings: number[], readMs = 500, interruptAfter?: number): SpeedWaitParts & { reads: () => number } {
  let now = 0;
  let reads = 0;
  return {
    read: async () => {
      now += readMs;
      const value = readings[Math.min(reads, readings.length - 1)] as number;
      reads++;
      return value;
    },
    sleep: async (ms) => {
      now += ms;
    },
    now: () => now,
    interrupted: () => (interruptAfter !== undefined && reads >= interruptAfter ? "interrupted by SIGINT" : undefined),
    reads: () => reads,
  };
}

describe("waitForSpeed", () => {
  it("returns at once when the first reading is already back within the share", async () => {
    const m = machine([600_000 * (1 - MACHINE_SLOWER_SHARE)], 300);
    expect(await waitForSpeed(600_000, m)).toEqual({ waitedSec: 0, speed: 552_000, back: true });
    expect(m.reads()).toBe(1);
  });

  it("reads, pausing between readings, until the machine is back", async () => {
    const m = machine([420_000, 330_000, 415_000, 560_000]);
    const w = await waitForSpeed(600_000, m);
    expect(w).toEqual({ waitedSec: Math.round((4 * 500 + 3 * SPEED_WAIT_PAUSE_SEC * 1000) / 1000), speed: 560_000, back: true });
    expect(m.reads()).toBe(4);
  });

  it("gives up after SPEED_WAIT_MAX_SEC, saying the machine did not come back", async () => {
    const m = machine([400_000]);
    const w = await waitForSpeed(600_000, m);
    expect(w.back).toBe(false);
    expect(w.waitedSec).toBeGreaterThanOrEqual(SPEED_WAIT_MAX_SEC);
    expect(w.waitedSec).toBeLessThan(SPEED_WAIT_MAX_SEC + SPEED_WAIT_PAUSE_SEC + 1);
  });

  it("ends at once when the bench is interrupted", async () => {
    const m = machine([400_000], 500, 2);
    expect(await waitForSpeed(600_000, m)).toEqual({ waitedSec: Math.round((2 * 500 + SPEED_WAIT_PAUSE_SEC * 1000) / 1000), speed: 400_000, back: false });
    expect(m.reads()).toBe(2);
  });
});

describe("speedWaitNote", () => {
  it("says how the step was run again", () => {
    expect(speedWaitNote({ waitedSec: 0, speed: 590_123, back: true })).toBe("run again at once (speed index back at 590,123)");
    expect(speedWaitNote({ waitedSec: 13, speed: 590_123, back: true })).toBe("run again once the speed index was back at 590,123 (after 13 s idle)");
    expect(speedWaitNote({ waitedSec: 62, speed: 401_000, back: false })).toBe(
      "run again after 62 s idle without the machine coming back (speed index 401,000)",
    );
  });
});
