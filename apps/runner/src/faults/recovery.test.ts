import { recoverySec, type RecoveryRule } from "./recovery.ts";

const rule: RecoveryRule = { rate: 1000, fraction: 0.9, spanSec: 3 };

/** One tick a second from t=0 with the given output per second; `down` marks seconds with no reading. */
function ticks(perSecond: number[], down: number[] = []): Array<{ t: number; outputEnd: number; noReading?: true }> {
  let end = 0;
  return perSecond.map((n, t) => {
    end += down.includes(t) ? 0 : n;
    return { t, outputEnd: end, ...(down.includes(t) ? { noReading: true as const } : {}) };
  });
}

describe("recoverySec", () => {
  it("is the start of the first 3 s whose output keeps 90% of the offered rate after the stop", () => {
    // broker stopped at 5; output nothing until 9, then at the rate again.
    const run = ticks([1000, 1000, 1000, 1000, 1000, 1000, 0, 0, 0, 0, 1000, 1000, 1000, 1000, 1000]);
    expect(recoverySec(run, 5, rule)).toBe(4);
  });

  it("never counts a span that crosses a tick with no reading", () => {
    const run = ticks([1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000], [6, 7]);
    expect(recoverySec(run, 5, rule)).toBe(3);
  });

  it("counts a catch-up above the offered rate as back", () => {
    const run = ticks([1000, 1000, 0, 0, 0, 0, 3000, 3000, 3000, 1000]);
    expect(recoverySec(run, 1, rule)).toBe(4);
  });

  it("is undefined while the output stays below the rule", () => {
    const run = ticks([1000, 1000, 0, 500, 800, 850, 880, 500]);
    expect(recoverySec(run, 1, rule)).toBeUndefined();
  });

  it("is not read before the stop", () => {
    const run = ticks([1000, 1000, 1000, 1000, 0, 0, 0, 0]);
    expect(recoverySec(run, 4, rule)).toBeUndefined();
  });
});
