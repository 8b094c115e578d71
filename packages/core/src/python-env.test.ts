import { upstreamVersion } from "./python.ts";

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
