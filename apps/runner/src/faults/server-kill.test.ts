import { stalledSec } from "./server-kill.ts";

/** Ticks a second apart from t=10 with these output ends. */
const ticks = (outputs: number[]): Array<{ t: number; outputEnd: number; noReading?: true }> => outputs.map((outputEnd, i) => ({ t: 10 + i, outputEnd }));

describe("how long a served row stalled after its model server's kill", () => {
  it("counts from the kill to the first tick after the server's return whose output is past the last reading before it", () => {
    // Killed at 12; output still lands from a batch scored before the kill, then stands until the server is up at 16.5.
    const t = ticks([0, 100, 200, 250, 250, 250, 250, 250, 250, 400]);
    expect(stalledSec(t, 12, 16.5)).toBe(7);
  });

  it("is undefined while the output has not moved since the server came back", () => {
    expect(stalledSec(ticks([0, 100, 200, 200, 200, 200]), 12, 13.5)).toBeUndefined();
  });

  it("does not read a tick with no reading, whose offsets are carried over", () => {
    const t = ticks([0, 100, 100, 100, 100, 300, 350]);
    t[5] = { ...(t[5] as (typeof t)[number]), noReading: true };
    expect(stalledSec(t, 11, 12)).toBe(5);
  });

  it("is undefined with no reading before the server came back", () => {
    expect(stalledSec(ticks([0, 10]), 5, 9)).toBeUndefined();
  });
});
