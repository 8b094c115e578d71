import { SETTLE_RULE, settleRuleFor, settleVerdict, type BacklogPoint, type SettleRule } from "./settle.ts";

const rule: SettleRule = { ...SETTLE_RULE, minSec: 10, capSec: 60 };
const RATE = 20_000;

/**
 * Ticks once a second from 1 s with the backlog f(t) and records arriving at the offered rate
 * from `feedFrom` s; returns the first verdict that is not "wait".
 */
function firstVerdict(backlog: (t: number) => number, until = 120, feedFrom = 0, withRule = rule): { kind: string; t: number } {
  const points: BacklogPoint[] = [];
  for (let t = 1; t <= until; t++) {
    points.push({ t, backlog: backlog(t), inputEnd: RATE * Math.max(0, t - feedFrom) });
    const v = settleVerdict(points, RATE, withRule);
    if (v.kind !== "wait") return { kind: v.kind, t };
  }
  return { kind: "wait", t: until };
}

describe("settle detector", () => {
  it("a backlog that is small and flat from the start settles at the warmup", () => {
    expect(firstVerdict(() => 500)).toEqual({ kind: "settled", t: 10 });
  });

  it("a start-up backlog that is worked off settles once it has stayed small for the hold", () => {
    // 200k records behind at 1 s, worked off at 10k/s: under 1 s of records (20k) from t = 19.
    const v = firstVerdict((t) => Math.max(300, 200_000 - 10_000 * (t - 1)));
    expect(v.kind).toBe("settled");
    expect(v.t).toBeGreaterThanOrEqual(21); // 3 small ticks, and a flat 5-tick trend
    expect(v.t).toBeLessThanOrEqual(25);
  });

  it("a backlog that settles late, after the warmup, waits for it", () => {
    const v = firstVerdict((t) => (t < 40 ? 50_000 + (t % 3) * 1000 : 400));
    expect(v).toEqual({ kind: "settled", t: 44 });
  });

  it("a backlog that never settles (large, flat) ends at the cap", () => {
    expect(firstVerdict(() => 60_000)).toEqual({ kind: "cap", t: 60 });
  });

  it("a growing backlog past 3 s of records is read as overloaded, not waited for", () => {
    const v = firstVerdict((t) => 5_000 * t);
    expect(v.kind).toBe("overloaded");
    expect(v.t).toBe(13); // 65k > 60k = 3 s of records
  });

  it("an empty backlog before gendata delivers anything is not settled", () => {
    // gendata's first records arrive at 25 s (a slow start on a loaded machine): nothing before
    // that may open the window, however small and flat the backlog is.
    const v = firstVerdict((t) => (t < 25 ? 0 : 300), 120, 25);
    expect(v.kind).toBe("settled");
    expect(v.t).toBeGreaterThanOrEqual(27);
  });

  it("a noisy but small backlog (batches in flight) still settles", () => {
    const v = firstVerdict((t) => (t % 2 === 0 ? 9_000 : 1_000));
    expect(v).toEqual({ kind: "settled", t: 10 });
  });

  it("a micro-batch row's steady backlog of 1.5 s of records settles with its two trigger intervals' allowance, and not without", () => {
    const steady = (t: number): number => 30_000 + (t % 2) * 1_000;
    expect(firstVerdict(steady, 120, 0, settleRuleFor(10, 60, 0.5))).toEqual({ kind: "settled", t: 10 });
    expect(firstVerdict(steady, 120, 0, settleRuleFor(10, 60))).toEqual({ kind: "cap", t: 60 });
  });
});
