import type { OverloadResult } from "../results/types.ts";
import { renderOverloads } from "./overloads.ts";

const base: OverloadResult = {
  product: "node",
  status: "ok",
  startedAt: "2026-12-02T00:00:00Z",
  settings: { offeredRate: 40_000, burstRate: 80_000, burstSec: 60, workOffLimitSec: 180, parallelism: 2, seed: 42, baseFrom: "knee" },
  delivery: "at-least-once",
  versions: {},
  stayedUp: true,
  baselineMemMb: 120,
  peakMemMb: 480,
  burstOfferedPerSec: 79_500,
  backlogAfterBurst: 1_500_000,
  workedOffSec: 95.2,
  tally: { produced: 10, distinct: 10, lost: 0, duplicated: 3, poisonOut: 0, unreadable: 0, lostRanges: [] },
  ticks: [],
};

describe("the overload section", () => {
  it("gives per row the base and burst, peak memory against before, the work-off, whether it stayed up, lost and duplicates", () => {
    const text = renderOverloads([base]).join("\n");
    expect(text).toContain(
      "| node | at-least-once | 40,000 (knee) | 80,000 | 480 MB (120 MB before, ×4.00) | 95.2 s (1,500,000 waiting at the burst's end) | yes | 0 | 3 | ✓ |",
    );
  });

  it("says when gendata could not offer the burst, when the backlog was not worked off, and when the product went down", () => {
    const r: OverloadResult = {
      ...base,
      burstOfferedPerSec: 60_000,
      workedOffSec: undefined,
      stayedUp: false,
      productRestart: { atSec: 40, why: "it exited with code 137" },
    };
    const text = renderOverloads([r]).join("\n");
    expect(text).toContain("80,000 (gendata offered 60,000)");
    expect(text).toContain("**not within 180 s** (1,500,000 waiting at the burst's end)");
    expect(text).toContain("**no**: restarted by the bench 40 s in (it exited with code 137)");
  });

  it("names a base taken from a main command's rounds as the share of the knee it is", () => {
    const r: OverloadResult = { ...base, settings: { ...base.settings, baseFrom: "0.7 × knee" } };
    expect(renderOverloads([r]).join("\n")).toContain("| node | at-least-once | 40,000 (0.7 × knee) | 80,000 |");
  });

  it("is absent without overload runs", () => {
    expect(renderOverloads(undefined)).toEqual([]);
  });
});
