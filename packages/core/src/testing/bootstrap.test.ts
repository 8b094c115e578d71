import { requireBootstrap } from "./bootstrap.ts";

describe("requireBootstrap", () => {
  it("is BENCH_BOOTSTRAP, and says how to set it when it is not set", () => {
    expect(requireBootstrap({ BENCH_BOOTSTRAP: "127.0.0.1:9092" })).toBe("127.0.0.1:9092");
    expect(() => requireBootstrap({})).toThrow(/^BENCH_BOOTSTRAP is not set: point it at a Kafka broker/);
    expect(() => requireBootstrap({ BENCH_BOOTSTRAP: "" })).toThrow(/BENCH_BOOTSTRAP is not set/);
  });
});
