import { GIVE_UP_SEC, stallReason } from "./rate-producer.ts";

describe("when gendata gives up on a broker that takes nothing", () => {
  const limitMs = GIVE_UP_SEC * 1000;
  it("waits out a broker that is away for less than the limit, and never gives up with nothing waiting", () => {
    expect(stallReason(5000, limitMs - 1, limitMs, "all broker connections are down")).toBeUndefined();
    expect(stallReason(0, limitMs * 10, limitMs, undefined)).toBeUndefined();
  });
  it("gives up past the limit with records waiting, saying how many and the last error", () => {
    expect(stallReason(5000, limitMs + 1, limitMs, "all broker connections are down")).toBe(
      `no record acknowledged for ${GIVE_UP_SEC} s with 5000 waiting (last error: all broker connections are down)`,
    );
  });
  it("waits longer than a broker's restart takes: a clean stop, its time down and its start", () => {
    expect(GIVE_UP_SEC).toBeGreaterThanOrEqual(60);
  });
});
