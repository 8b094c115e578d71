import { upstreamVersion } from "./python-env.ts";

describe("upstreamVersion", () => {
  it("drops the Debian revision and repack suffix", () => {
    expect(upstreamVersion("1.13.1+dfsg-4")).toBe("1.13.1");
  });

  it("drops an epoch", () => {
    expect(upstreamVersion("1:2.0.3-1")).toBe("2.0.3");
  });

  it("is undefined for something that is not a version", () => {
    expect(upstreamVersion("")).toBeUndefined();
  });
});

describe("upstreamVersion on other shapes", () => {
  it("keeps a plain version and cuts a pre-release tail", () => {
    expect(upstreamVersion("0.7.8")).toBe("0.7.8");
    expect(upstreamVersion("1.13.0a0+gitunknown")).toBe("1.13.0");
  });
});
