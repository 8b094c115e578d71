import type { ResourceSample } from "@bench/core";
import { withServer } from "./server-sample.ts";

const sample = (cpuPercent: number, memMb: number, processes: number, instrument: ResourceSample["instrument"] = "pss"): ResourceSample =>
  ({ t: 1, cpuPercent, memMb, processes, instrument });

describe("withServer", () => {
  it("adds the server's CPU, memory and processes to the row's and keeps the server's share", () => {
    expect(withServer(sample(60, 200, 1), sample(25, 150, 1))).toEqual({
      sample: { t: 1, cpuPercent: 85, memMb: 350, processes: 2, instrument: "pss" },
      server: { cpuPercent: 25, memMb: 150 },
    });
  });

  it("leaves the row's sample as it is when no server is sampled", () => {
    const row = sample(60, 200, 1);
    expect(withServer(row, undefined)).toEqual({ sample: row });
  });

  it("says mixed when the two were read with different memory instruments", () => {
    expect(withServer(sample(1, 1, 1, "pss"), sample(1, 1, 1, "rss")).sample?.instrument).toBe("mixed");
  });

  it("keeps the server's share on a tick the row has no sample (the sampler's first)", () => {
    expect(withServer(undefined, sample(5, 100, 1))).toEqual({ sample: undefined, server: { cpuPercent: 5, memMb: 100 } });
  });
});
