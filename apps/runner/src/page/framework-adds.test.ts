import { countingRun as run, resultsOf } from "./__fixtures__/counting-run.ts";
import { frameworkAdds, frameworkAddsSection, startSpan } from "./framework-adds.ts";

describe("what the framework adds", () => {
  it("subtracts the floor's median µs from a same-runtime row's at every rate both kept up with, highest rate first", () => {
    const floor = { floorFor: "python" };
    const rows = frameworkAdds(
      resultsOf([
        run("plain", 10_000, 10, floor),
        run("plain", 10_000, 12, floor),
        run("plain", 20_000, 9, { ...floor, startedAt: "2026-12-01T18:30:00.000Z" }),
        run("plain", 40_000, 8, floor),
        run("framework", 10_000, 25),
        run("framework", 20_000, 20),
        // saturated at 40k: not a counting run, so no pair there
        run("framework", 40_000, 19, { throughput: { ...run("x", 40_000, 19).throughput!, regime: "saturated" } }),
        // another runtime: no floor for it
        run("jvm", 20_000, 7, { versions: { java: "17" } }),
      ]),
    );
    expect(rows).toEqual([
      {
        product: "framework",
        floor: "plain",
        rate: 20_000,
        rowMicros: 20,
        rowRuns: 1,
        floorMicros: 9,
        floorRuns: 1,
        adds: 11,
        from: "2026-12-01T18:00:00.000Z",
        to: "2026-12-01T18:30:00.000Z",
      },
      {
        product: "framework",
        floor: "plain",
        rate: 10_000,
        rowMicros: 25,
        rowRuns: 1,
        floorMicros: 11,
        floorRuns: 2,
        adds: 14,
        from: "2026-12-01T18:00:00.000Z",
        to: "2026-12-01T18:00:00.000Z",
      },
    ]);
  });

  it("leaves out passthrough rows and pages without a floor", () => {
    expect(frameworkAdds(resultsOf([run("plain", 10_000, 10, { floorFor: "python" }), run("copy", 10_000, 5, { passthrough: true })]))).toEqual([]);
    expect(frameworkAddsSection(resultsOf([run("framework", 10_000, 25)]))).toEqual([]);
  });

  it("renders a table with the difference and the ratio", () => {
    const text = frameworkAddsSection(resultsOf([run("plain", 10_000, 10, { floorFor: "python" }), run("framework", 10_000, 25)])).join("\n");
    expect(text).toContain("| framework | plain | 10,000 | 25.00 (1) | 10.00 (1) | +15.00 | 2.50× | 2026-12-01 18:00 |");
  });

  it("reads every scoring row against the native floor, first, and the Python rows against the Python floor too", () => {
    const native = { floorFor: "native", versions: { rustc: "1.95.0" } };
    const rows = frameworkAdds(
      resultsOf([
        run("plain", 10_000, 10, { floorFor: "python" }),
        run("framework", 10_000, 25),
        run("jvm", 10_000, 12, { versions: { java: "17" } }),
        run("copy", 10_000, 3, { passthrough: true, versions: { node: "20" } }),
        run("rust", 10_000, 2.5, native),
        run("rust", 20_000, 2, native),
      ]),
    );
    expect(rows.map((r) => [r.product, r.floor, r.rate, r.adds])).toEqual([
      ["plain", "rust", 10_000, 7.5],
      ["framework", "rust", 10_000, 22.5],
      ["jvm", "rust", 10_000, 9.5],
      ["framework", "plain", 10_000, 15],
    ]);
  });

  it("reads a pair that shares no rate at each one's knee, marked, and leaves pairs that share one as they are", () => {
    const page = resultsOf([run("rust", 200_000, 2.5, { floorFor: "native" }), run("framework", 30_000, 20), run("plain", 30_000, 9, { floorFor: "python" })]);
    const ranked = new Map([
      ["rust", { rate: 200_000, micros: 2.5, runs: 2, startedAt: "2026-12-01T18:10:00.000Z" }],
      ["framework", { rate: 30_000, micros: 20, runs: 2, startedAt: "2026-12-01T18:00:00.000Z" }],
      ["plain", { rate: 30_000, micros: 9, runs: 2, startedAt: "2026-12-01T18:00:00.000Z" }],
    ]);
    const rows = frameworkAdds(page, ranked);
    expect(rows.map((r) => [r.product, r.floor, r.rate, r.floorRate, r.adds])).toEqual([
      ["framework", "rust", 30_000, 200_000, 17.5],
      ["plain", "rust", 30_000, 200_000, 6.5],
      ["framework", "plain", 30_000, undefined, 11],
    ]);
    expect(frameworkAddsSection(page, ranked).join("\n")).toContain(
      "| framework | rust | 30,000 / 200,000 (knees) | 20.00 (2) | 2.50 (2) | +17.50 | 8.00× | 2026-12-01 18:00–18:10 |",
    );
    expect(frameworkAdds(page).some((r) => r.floorRate !== undefined)).toBe(false);
  });
  it("writes a span of start times on one day once", () => {
    expect(startSpan("2026-12-01T18:00:00Z", "2026-12-01T18:42:00Z")).toBe("2026-12-01 18:00–18:42");
    expect(startSpan("2026-12-01T23:50:00Z", "2026-12-02T00:10:00Z")).toBe("2026-12-01 23:50 – 2026-12-02 00:10");
  });
});
