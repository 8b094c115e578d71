import type { Phase, Tick } from "../results/types.ts";
import type { GendataProcess } from "./gendata-process.ts";
import { drain, measureWindow, settledWindow } from "./phases.ts";
import { settleRuleFor } from "../metrics/settle.ts";
import type { RunTicker } from "./ticker.ts";

const RATE = 10_000;

/**
 * A scripted ticker (a stand-in for the 1 s beat over a real product): records arrive at RATE;
 * the product republishes `out(t)` records by second t.
 */
function scripted(out: (t: number) => number): RunTicker & { ticks: Tick[] } {
  const ticks: Tick[] = [];
  let t = 0;
  const ticker = {
    ticks,
    windowHarness: [] as RunTicker["windowHarness"],
    elapsed: () => t,
    discardWindow(): void {
      for (const tick of ticks) if (tick.phase === "window") tick.phase = "settle";
    },
    async next(phase: Phase): Promise<Tick> {
      t++;
      const tick: Tick = { t, phase, inputEnd: RATE * t, consumed: out(t), outputEnd: out(t), cpuPercent: 50, memMb: 100, processes: 1, instrument: "pss" };
      ticks.push(tick);
      return tick;
    },
  };
  return ticker as unknown as RunTicker & { ticks: Tick[] };
}

describe("settle, then the window", () => {
  it("a slow start read as overloaded is caught by its window, and the run settles and measures again", async () => {
    // Nothing republished for 8 s (start-up), then 15k/s until caught up, then the offered rate.
    const backlogAt8 = RATE * 8;
    const caughtUp = 8 + backlogAt8 / 5_000; // 24 s
    const out = (t: number): number => (t <= 8 ? 0 : t <= caughtUp ? 15_000 * (t - 8) : RATE * t - 200);
    const ticker = scripted(out);
    const { settled, window } = await settledWindow(ticker, RATE, settleRuleFor(10, 120), 10);
    expect(settled.how).toBe("settled");
    expect(window.ticks[0]!.t).toBeGreaterThan(caughtUp);
    expect(window.ticks.every((t) => t.phase === "window")).toBe(true);
    // The first window (catch-up) was relabelled: only the second counts.
    expect(ticker.ticks.filter((t) => t.phase === "window")).toHaveLength(10);
    expect(ticker.ticks.some((t) => t.phase === "settle" && t.t > 10 && t.t <= 20)).toBe(true);
  });

  it("a product really past its capacity keeps its overloaded window (saturated)", async () => {
    const ticker = scripted((t) => 6_000 * t);
    const { settled, window } = await settledWindow(ticker, RATE, settleRuleFor(10, 120), 10);
    expect(settled.how).toBe("overloaded");
    expect(window.ticks[0]!.t).toBe(11);
    expect(ticker.ticks.filter((t) => t.phase === "window")).toHaveLength(10);
  });
});

describe("a window that ends when its figure is known", () => {
  it("ends a steady window at the rule's minimum, from the settle's last tick", async () => {
    const ticker = scripted((t) => RATE * t - 200);
    await ticker.next("settle");
    const window = await measureWindow(ticker, { minSec: 5, maxSec: 30, relHalfWidth: 0.02 });
    // Five seconds after the settle's last tick at t = 1: a constant cost is known at once.
    expect(window.ticks.map((t) => t.t)).toEqual([2, 3, 4, 5, 6]);
  });

  it("runs to the maximum when the cost never steadies", async () => {
    const ticker = scripted((t) => RATE * t + (t % 2 === 0 ? 3_000 : -3_000));
    await ticker.next("settle");
    const window = await measureWindow(ticker, { minSec: 5, maxSec: 12, relHalfWidth: 0.02 });
    expect(window.ticks).toHaveLength(12);
  });
});

describe("the drain after gendata stops", () => {
  it("fails the run with gendata's own reason when gendata gave up, before reading any backlog as the product's", async () => {
    const gendata = {
      stop: async () => ({ t: 60, sent: 5000, delivered: 2000, failed: 0, behind: 0, cpuSeconds: 1, final: true, gaveUp: "no record acknowledged for 120 s" }),
      gaveUp: () => "gendata could not go on: no record acknowledged for 120 s with 3000 waiting (last error: none)",
    } as unknown as GendataProcess;
    let ticked = 0;
    const ticker = { next: async () => void ticked++, elapsed: () => 0 } as unknown as RunTicker;
    await expect(drain(ticker, gendata, 30)).rejects.toThrow(/^gendata could not go on: no record acknowledged for 120 s/);
    expect(ticked).toBe(0);
  });
});
