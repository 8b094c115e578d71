import type { RemoteResources, ResourceSample } from "@bench/core";
import { RemoteMeter, withRemote } from "./remote-resources.ts";

const source = (readings: Array<{ cpuSeconds: number; rssBytes?: number }>): RemoteResources => ({
  describe: "test",
  read: async () => readings.shift() ?? { cpuSeconds: 0 },
});
const sample: ResourceSample = { t: 1, cpuPercent: 40, memMb: 100, processes: 3, instrument: "pss" };

describe("remote resources in a tick", () => {
  it("turns cumulative CPU seconds into percent of a core over the tick, the first reading a baseline", async () => {
    const meter = new RemoteMeter(() => src);
    const src = source([{ cpuSeconds: 10 }, { cpuSeconds: 11.5, rssBytes: 512 * 1024 * 1024 }]);
    expect(await meter.read(1000)).toEqual({ cpuPercent: 0 });
    expect(await meter.read(2000)).toEqual({ cpuPercent: 150, memMb: 512 });
  });

  it("starts a new baseline when the source changes (a restart) or its counter goes back", async () => {
    let src = source([{ cpuSeconds: 5 }, { cpuSeconds: 1 }, { cpuSeconds: 2 }]);
    const meter = new RemoteMeter(() => src);
    await meter.read(0);
    expect((await meter.read(1000))?.cpuPercent).toBe(0);
    expect((await meter.read(2000))?.cpuPercent).toBe(100);
    src = source([{ cpuSeconds: 50 }]);
    expect((await meter.read(3000))?.cpuPercent).toBe(0);
  });

  it("reads nothing without a source or when the engine cannot be read", async () => {
    expect(await new RemoteMeter(() => undefined).read()).toBeUndefined();
    const failing: RemoteResources = { describe: "down", read: () => Promise.reject(new Error("no")) };
    expect(await new RemoteMeter(() => failing).read()).toBeUndefined();
  });

  it("adds CPU and memory to the /proc sample; engine memory makes a PSS reading mixed", () => {
    expect(withRemote(sample, undefined)).toBe(sample);
    expect(withRemote(sample, { cpuPercent: 60 })).toEqual({ ...sample, cpuPercent: 100 });
    expect(withRemote(sample, { cpuPercent: 60, memMb: 50 })).toEqual({ ...sample, cpuPercent: 100, memMb: 150, instrument: "mixed" });
    expect(withRemote({ ...sample, instrument: "rss" }, { cpuPercent: 0, memMb: 50 })?.instrument).toBe("rss");
    expect(withRemote(undefined, { cpuPercent: 60 })).toBeUndefined();
  });
});
