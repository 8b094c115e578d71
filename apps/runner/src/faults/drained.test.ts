import { isDrainedAfterKill } from "./drained.ts";

describe("a fault run's backlog drained again", () => {
  const limit = 20_000; // one second of records at 20k/s

  it("is not drained before the restarted product's first new output, however small the backlog", () => {
    expect(isDrainedAfterKill({ sinceKill: 1, backlog: 15_000 }, undefined, limit)).toBe(false);
    expect(isDrainedAfterKill({ sinceKill: 1, backlog: 15_000 }, 45.4, limit)).toBe(false);
  });

  it("is drained at the first tick after the first output with the backlog back under the limit", () => {
    expect(isDrainedAfterKill({ sinceKill: 46, backlog: 900_000 }, 45.4, limit)).toBe(false);
    expect(isDrainedAfterKill({ sinceKill: 49, backlog: 12_000 }, 45.4, limit)).toBe(true);
    expect(isDrainedAfterKill({ sinceKill: 49, backlog: limit }, 45.4, limit)).toBe(true);
  });
});
