import type { BrokerRestartResult } from "../results/types.ts";
import { renderBrokerRestarts } from "./broker-restarts.ts";

const restart = (over: Partial<BrokerRestartResult>): BrokerRestartResult => ({
  product: "p",
  variant: "hard",
  status: "ok",
  startedAt: "2026-12-01T00:00:00Z",
  settings: { offeredRate: 1000, warmupSec: 6, windowSec: 20, parallelism: 1, seed: 42, downSec: 5, recoveryLimitSec: 120 },
  delivery: "at-least-once",
  versions: {},
  broker: { stoppedAtSec: 16, stopSec: 0.3, downSec: 8.4 },
  recoverySec: 11.2,
  recovered: "by-itself",
  undrained: 0,
  tally: { produced: 30000, distinct: 30000, lost: 0, duplicated: 120, poisonOut: 0, unreadable: 0, lostRanges: [] },
  ticks: [],
  ...over,
});

describe("the Broker restarts section", () => {
  it("is absent without a broker-restart run", () => {
    expect(renderBrokerRestarts(undefined)).toEqual([]);
    expect(renderBrokerRestarts([])).toEqual([]);
  });

  it("shows per row lost, duplicates, recovery seconds and whether the bench had to restart the product", () => {
    const page = renderBrokerRestarts([
      restart({ product: "node" }),
      restart(
        {
          product: "quix",
          variant: "clean",
          recovered: "restarted",
          recoverySec: 140.3,
          productRestart: { atSec: 120.4, why: "its output was not back at the offered rate 120 s after the broker's stop" },
        },
      ),
      restart(
        {
          product: "faststream",
          tally: { produced: 30000, distinct: 29000, lost: 1000, duplicated: 0, poisonOut: 0, unreadable: 0, lostRanges: [[15000, 15999]] },
        },
      ),
    ]).join("\n");
    expect(page).toContain("| node | hard | at-least-once | 1,000 | 8.4 s (stopping took 0.3 s) | 0 | 120 | 11.2 s | by itself | ✓ |");
    expect(page).toContain("| quix | clean |");
    expect(page).toContain("**restarted by the bench** 120.4 s after the stop (its output was not back");
    expect(page).toContain("**1,000** (e15000–e15999)");
  });

  it("says a row was not run here when the broker is the user's", () => {
    const page = renderBrokerRestarts(
      [
        restart(
          {
            status: "not-run",
            reason: "not run here: the broker was given with --bootstrap",
            recovered: undefined,
            recoverySec: undefined,
            tally: undefined,
            broker: undefined,
          },
        ),
      ],
    ).join("\n");
    expect(page).toContain("| – | – | – | – | not-run: not run here: the broker was given with --bootstrap |");
  });
});
