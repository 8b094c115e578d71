import type { Tick } from "../results/types.ts";
import { overloadFigures } from "./overload-figures.ts";

/** A second of a product at `rate` with `waiting` records behind and `memMb` of PSS. */
const tick = (t: number, inputEnd: number, consumed: number, memMb: number, phase: Tick["phase"] = "window"): Tick => ({
  t, phase, inputEnd, consumed, outputEnd: consumed, cpuPercent: 90, memMb, processes: 1, instrument: "pss",
});

describe("an overload run's figures", () => {
  // 10 s at 1,000/s (backlog 200), 5 s at 2,000/s offered while it consumes 1,100/s, then 1,000/s offered while it works the backlog off at 1,100/s.
  const ticks: Tick[] = [];
  let input = 0;
  let consumed = 0;
  for (let t = 1; t <= 10; t++) ticks.push(tick(t, (input += 1000), (consumed = input - 200), 100));
  for (let t = 11; t <= 15; t++) ticks.push(tick(t, (input += 2000), (consumed += 1100), 100 + (t - 10) * 40));
  for (let t = 16; t <= 200; t++) {
    input += 1000;
    consumed = Math.min(input - 200, consumed + 1100);
    ticks.push(tick(t, input, consumed, 250));
  }

  it("reads the burst's rate, the memory before and at its peak, and the backlog it left", () => {
    const f = overloadFigures(ticks, { burstFromSec: 10, burstToSec: 15, rate: 1000 });
    expect(f.baselineMemMb).toBe(100);
    expect(f.peakMemMb).toBe(300);
    expect(f.burstOfferedPerSec).toBe(2000);
    expect(f.backlogAfterBurst).toBe(200 + 5 * 900);
  });

  it("dates the work-off from the burst's end to the first tick back at the baseline backlog", () => {
    const f = overloadFigures(ticks, { burstFromSec: 10, burstToSec: 15, rate: 1000 });
    expect(f.backlogBaseline).toBe(1000); // one second of the base rate: more than the baseline's 200
    // 4,700 waiting, 100/s worked off: at or under 1,000 after 37 s
    expect(f.workedOffSec).toBe(37);
  });

  it("leaves the work-off undefined when the backlog never came back within the run", () => {
    const f = overloadFigures(ticks.slice(0, 30), { burstFromSec: 10, burstToSec: 15, rate: 1000 });
    expect(f.workedOffSec).toBeUndefined();
    expect(f.backlogAfterBurst).toBe(4700);
  });

  it("does not count the drain, when gendata has stopped, as working the backlog off", () => {
    const stopped = [
      ...ticks.slice(0, 30),
      ...ticks.slice(30, 40).map((t) => ({ ...t, phase: "drain" as const, inputEnd: 30 * 1000 + 5 * 1000, consumed: Math.min(35_000, t.consumed + 3000) })),
    ];
    expect(overloadFigures(stopped, { burstFromSec: 10, burstToSec: 15, rate: 1000 }).workedOffSec).toBeUndefined();
  });

  it("reads no rate across ticks without a reading", () => {
    const dark = ticks.map((t) => (t.t >= 11 && t.t <= 15 ? { ...t, noReading: true as const } : t));
    expect(overloadFigures(dark, { burstFromSec: 10, burstToSec: 15, rate: 1000 }).burstOfferedPerSec).toBeUndefined();
  });
});
