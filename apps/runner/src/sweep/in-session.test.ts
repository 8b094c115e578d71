import type { SweepRecord } from "../results/types.ts";
import { audited } from "./in-session.ts";
import type { SweepResult } from "./knee.ts";

const step = (rate: number, extra: Partial<SweepRecord["steps"][number]> = {}): SweepRecord["steps"][number] => ({
  rate, offeredPerSec: rate, consumedPerSec: rate, regime: "keep-up", gendataShort: false, purpose: "climb", ...extra,
});

const found = (): SweepResult => ({
  steps: [],
  knee: 40_000,
  confirmed: true,
  stoppedBecause: "40000/s held on a repeat.",
  bracket: { keptUp: 40_000, saturated: 44_000 },
});

describe("a search's record after its session's audit", () => {
  it("stays as it was when the audit found nothing", () => {
    const steps = [step(20_000), step(40_000)];
    expect(audited(found(), steps, undefined)).toEqual(found());
    expect(steps.every((s) => s.invalid === undefined)).toBe(true);
  });

  it("loses its knee, and every step that ran is invalid, when the output was found wanting", () => {
    const steps = [step(20_000), step(40_000), step(80_000, { failed: "exited with code 1" })];
    const result = audited(found(), steps, "3 records lost\nseq 17, 18, 19");
    expect(result.knee).toBeUndefined();
    expect(result.confirmed).toBe(false);
    expect(result.stoppedBecause).toContain("The session's audit found: 3 records lost");
    expect(steps.map((s) => s.invalid)).toEqual(["3 records lost", "3 records lost", undefined]);
  });
});
