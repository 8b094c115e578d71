import type { Tick } from "../results/types.ts";
import {
  BACKLOG_LEFT_SEC,
  DRAIN_WINDOW_MAX_SEC,
  drainWindowEnd,
  drainWindowRule,
  FILL_BACKLOG_SEC,
  FILL_MAX_SEC,
  FILL_MIN_SEC,
  DRAIN_TAIL_MAX_SEC,
  DRAIN_TAIL_SLACK,
  drainTailTimeoutSec,
  FILL_PROBE_RECORDS,
  fillVerdict,
  probeWorkedOff,
  REFILL_BACKLOG_SEC,
  refillWindowCounts,
} from "./drain-window.ts";

const rule = { minSec: 10, maxSec: 30, relHalfWidth: 0.02 };

/** A pre-filled backlog of `backlog` records drained at `rate`/s from t = 0, at a steady cost. */
function draining(seconds: number, rate: number, backlog: number): Tick[] {
  return Array.from({ length: seconds + 1 }, (_, t) => ({
    t,
    phase: "window" as const,
    inputEnd: backlog,
    consumed: Math.min(backlog, rate * t),
    outputEnd: Math.min(backlog, rate * t),
    cpuPercent: 100,
    memMb: 300,
    processes: 1,
    instrument: "pss" as const,
  }));
}

describe("drainWindowEnd", () => {
  it("goes on while the figure is not known and the backlog lasts", () => {
    expect(drainWindowEnd(draining(5, 100_000, 3_000_000), rule)).toBeUndefined();
  });

  it("ends once the figure is known", () => {
    expect(drainWindowEnd(draining(10, 100_000, 3_000_000), rule)).toBe("known");
  });

  it("has two window ticks at least, even when the backlog has run out", () => {
    expect(drainWindowEnd(draining(1, 100_000, 50_000), rule)).toBeUndefined();
    expect(drainWindowEnd(draining(2, 100_000, 50_000), rule)).toBe("backlog-low");
  });

  it("ends before the backlog runs out, whatever the interval says", () => {
    // 1.5M at 175k/s: at 7 s 275k are left, under 3 s of it, before the window's 10 s minimum.
    expect(drainWindowEnd(draining(7, 175_000, 1_500_000), rule)).toBe("backlog-low");
    expect(drainWindowEnd(draining(5, 175_000, 175_000 * (5 + BACKLOG_LEFT_SEC + 1)), rule)).toBeUndefined();
  });

  it("counts a window the backlog cut short after the rule's minimum as known", () => {
    // 3M at 175k/s: at 15 s 375k are left, under 3 s of it; the window has had its 10 s.
    expect(drainWindowEnd(draining(15, 175_000, 3_000_000), rule)).toBe("known");
  });

  it("does not when the committed offset stood still through it (flink's checkpoint commits)", () => {
    // 91k left (all of it already republished); the offset stands still for 10 s, then one commit takes it to the end.
    const still = draining(11, 0, 91_000).map((t) => ({ ...t, outputEnd: 91_000, consumed: t.t === 11 ? 91_000 : 0 }));
    expect(drainWindowEnd(still, rule)).toBe("backlog-low");
    // at the rule's longest window the same: a figure needs MIN_PERIODS periods that moved
    const stillLong = draining(30, 0, 3_000_000).map((t) => ({ ...t, consumed: t.t === 30 ? 100_000 : 0 }));
    expect(drainWindowEnd(stillLong, rule)).toBe("backlog-low");
  });
});

describe("drainWindowRule", () => {
  it("caps the paced rule's longest window at DRAIN_WINDOW_MAX_SEC and keeps the rest", () => {
    expect(drainWindowRule({ minSec: 10, maxSec: 20, relHalfWidth: 0.02 })).toEqual({ minSec: 10, maxSec: DRAIN_WINDOW_MAX_SEC, relHalfWidth: 0.02 });
    expect(drainWindowRule({ minSec: 5, maxSec: 8, relHalfWidth: 0.02 })).toEqual({ minSec: 5, maxSec: 8, relHalfWidth: 0.02 });
  });
});

/** gendata writing `writing`/s beside a product consuming `consuming`/s, from t = 0. */
function filling(seconds: number, writing: number, consuming: number): Tick[] {
  return Array.from({ length: seconds + 1 }, (_, t) => ({
    t,
    phase: "warmup" as const,
    inputEnd: writing * t,
    consumed: Math.min(writing, consuming) * t,
    outputEnd: Math.min(writing, consuming) * t,
    cpuPercent: 150,
    memMb: 300,
    processes: 1,
    instrument: "pss" as const,
  }));
}

describe("fillVerdict", () => {
  it("fills for the minimum before it reads the product's rate", () => {
    expect(fillVerdict(filling(FILL_MIN_SEC - 1, 200_000, 1_000))).toBe("filling");
  });

  it("stops once the backlog lasts FILL_BACKLOG_SEC at what the product consumes", () => {
    // 190k/s net growth; 10k/s consumed needs 450k waiting: by t = 4 (760k).
    expect(fillVerdict(filling(FILL_MIN_SEC, 200_000, 10_000))).toBe("filled");
    // 60k/s consumed needs 2.7M waiting at 140k/s growth: t = 20 (2.8M), not t = 19 (2.66M).
    const seconds = Math.ceil((60_000 * FILL_BACKLOG_SEC) / 140_000);
    expect(fillVerdict(filling(seconds - 1, 200_000, 60_000))).toBe("filling");
    expect(fillVerdict(filling(seconds, 200_000, 60_000))).toBe("filled");
  });

  it("reads the product's rate from gendata's first write, not from the seconds before it", () => {
    // node-passthrough: gendata's first write came 4 s after its start; 777/s consumed
    // over the ticks before it sized the backlog at 35,000, and both drain windows measured nothing.
    const tick = (t: number, inputEnd: number, consumed: number): Tick => ({ ...(filling(0, 0, 0)[0] as Tick), t, inputEnd, consumed, outputEnd: consumed });
    const logged = [tick(1, 315, 315), tick(2, 315, 315), tick(3, 315, 315), tick(4, 315, 315), tick(5, 123_195, 2_646)];
    expect(fillVerdict(logged)).toBe("filling");
    // Four seconds of writing later, 80,000/s read beside gendata asks 3.6M: still filling.
    const writing = filling(4, 150_000, 80_000).map((t) => tick(t.t + 5, 123_195 + t.inputEnd, 2_646 + t.consumed));
    expect(fillVerdict([...logged, ...writing.slice(1)])).toBe("filling");
    // A gendata that never writes still ends at the cap.
    expect(fillVerdict(filling(FILL_MAX_SEC, 0, 0))).toBe("cap");
  });

  it("fills on while the product's commits have not moved, or the first drain measured no rate", () => {
    const silent = filling(FILL_MIN_SEC + 2, 200_000, 0);
    expect(fillVerdict(silent)).toBe("filling");
    expect(fillVerdict(silent, 0)).toBe("filling");
    expect(fillVerdict(filling(FILL_MAX_SEC, 200_000, 0))).toBe("cap");
  });

  it("gives up on a product that keeps up with gendata, after twice the minimum", () => {
    expect(fillVerdict(filling(2 * FILL_MIN_SEC - 1, 180_000, 260_000))).toBe("filling");
    expect(fillVerdict(filling(2 * FILL_MIN_SEC, 180_000, 260_000))).toBe("outpaced");
  });

  it("a refill is sized by the drain rate the first drain measured, counted from its own start", () => {
    // A JVM row whose commits lag: 2,000/s consumed beside gendata, 64,000/s drained alone.
    const needed = 64_000 * REFILL_BACKLOG_SEC;
    const refill = filling(40, 170_000, 2_000).map((t) => ({ ...t, t: t.t + 100 }));
    const at = refill.findIndex((t) => t.inputEnd - t.consumed >= needed);
    expect(fillVerdict(refill.slice(0, at), 64_000)).toBe("filling");
    expect(fillVerdict(refill.slice(0, at + 1), 64_000)).toBe("filled");
    // Without the drain rate, 2,000/s would have stopped it at the minimum.
    expect(fillVerdict(refill.slice(0, FILL_MIN_SEC + 1))).toBe("filled");
  });

  it("is not outpaced while a backlog of seconds waits, nor in a refill", () => {
    // gendata's rate dropped to what the product reads, 245k waiting at 73k/s (flink)
    const ticks = filling(2 * FILL_MIN_SEC, 73_000, 73_000).map((t) => ({ ...t, inputEnd: t.inputEnd + 245_000 }));
    expect(fillVerdict(ticks)).toBe("filling");
    expect(fillVerdict(filling(2 * FILL_MIN_SEC, 180_000, 260_000), 100_000)).toBe("filling");
  });

  it("stops at the cap with the backlog it has", () => {
    expect(fillVerdict(filling(FILL_MAX_SEC - 1, 100_000, 80_000))).toBe("filling");
    expect(fillVerdict(filling(FILL_MAX_SEC, 100_000, 80_000))).toBe("cap");
  });
});

describe("refillWindowCounts", () => {
  // flink: a first window of 5 s at 55,000/s, then a refill it kept pace with for the whole cap.
  const first = { window: draining(5, 55_000, 3_000_000) };

  it("keeps the first window when the refill's drained nothing, however long it ran", () => {
    expect(refillWindowCounts(first, { window: draining(10, 0, 100_000), end: "backlog-low" })).toBe(false);
  });

  it("takes the refill's window when its figure is known or it drained more", () => {
    expect(refillWindowCounts(first, { window: draining(12, 100_000, 3_000_000), end: "known" })).toBe(true);
    expect(refillWindowCounts(first, { window: draining(4, 105_000, 3_000_000), end: "backlog-low" })).toBe(true);
    expect(refillWindowCounts(first, { window: draining(4, 50_000, 3_000_000), end: "backlog-low" })).toBe(false);
  });
});

describe("drainTailTimeoutSec", () => {
  it("waits --drain-timeout for a row fast enough to empty its tail in it", () => {
    expect(drainTailTimeoutSec(500_000, 100_000, 60)).toBe(60);
  });

  it("waits for a slow row's tail at its own rate: a backlog gendata filled at full speed is drained, not invalid", () => {
    // A row draining 7,000/s behind 600,000 records needs 86 s; waited for with the slack.
    expect(drainTailTimeoutSec(600_000, 7000, 60)).toBe(Math.ceil((600_000 / 7000) * DRAIN_TAIL_SLACK));
  });

  it("never waits past DRAIN_TAIL_MAX_SEC, nor less than --drain-timeout, and keeps it without a rate or a backlog", () => {
    expect(drainTailTimeoutSec(10_000_000, 1000, 60)).toBe(DRAIN_TAIL_MAX_SEC);
    expect(drainTailTimeoutSec(10_000_000, 1000, 900)).toBe(900);
    expect(drainTailTimeoutSec(600_000, 0, 60)).toBe(60);
    expect(drainTailTimeoutSec(0, 7000, 60)).toBe(60);
  });
});

describe("the fill's probe", () => {
  /** gendata's counted probe written in the first second, then the row consuming at `consuming`/s. */
  const probe = (seconds: number, consuming: number): Tick[] =>
    Array.from({ length: seconds + 1 }, (_, t) => ({
      ...(filling(0, 0, 0)[0] as Tick),
      t,
      inputEnd: t === 0 ? 0 : FILL_PROBE_RECORDS,
      consumed: Math.min(FILL_PROBE_RECORDS, consuming * t),
      outputEnd: Math.min(FILL_PROBE_RECORDS, consuming * t),
    }));

  it("fills a row under 3,400/s by itself: the backlog it leaves holds FILL_BACKLOG_SEC of the row's rate", () => {
    const slow = probe(FILL_MIN_SEC + 1, 650);
    expect(probeWorkedOff(slow, FILL_PROBE_RECORDS)).toBe(false);
    expect(fillVerdict(slow)).toBe("filled");
    expect(FILL_PROBE_RECORDS - 650 * FILL_MIN_SEC).toBeGreaterThanOrEqual(650 * FILL_BACKLOG_SEC);
  });

  it("is worked off by a fast row within seconds, and only once gendata delivered all of it and nine tenths are read", () => {
    expect(probeWorkedOff(probe(1, 40_000), FILL_PROBE_RECORDS)).toBe(false);
    expect(probeWorkedOff(probe(3, 40_000), FILL_PROBE_RECORDS)).toBe(true);
    expect(probeWorkedOff(probe(3, 40_000), FILL_PROBE_RECORDS - 1)).toBe(false);
    expect(probeWorkedOff([], FILL_PROBE_RECORDS)).toBe(false);
  });

  it("is worked off when a fast gendata wrote part of it before the fill's first tick", () => {
    // The first tick already holds 7,309 of the probe's records (gendata started before it).
    const early = probe(3, 40_000).map((t) => (t.t === 0 ? { ...t, inputEnd: 7_309 } : t));
    expect(probeWorkedOff(early, FILL_PROBE_RECORDS)).toBe(true);
  });

  it("fills a slow row by itself when gendata wrote all of the probe before the fill's first tick", () => {
    const allAtOnce = probe(FILL_MIN_SEC + 1, 650).map((t) => ({ ...t, inputEnd: FILL_PROBE_RECORDS }));
    expect(fillVerdict(allAtOnce)).toBe("filled");
  });

  it("leaves a slow row no more than DRAIN_TAIL_MAX_SEC of work at one model-server call a record", () => {
    expect(FILL_PROBE_RECORDS / 650).toBeLessThan(DRAIN_TAIL_MAX_SEC / DRAIN_TAIL_SLACK);
  });
});
