import { PYTHON_ENV, upstreamVersion } from "./python.ts";

describe("upstreamVersion", () => {
  it("drops the Debian revision and repack suffix", () => {
    expect(upstreamVersion("1.13.1+dfsg-4")).toBe("1.13.1");
  });

  it("drops an epoch", () => {
    expect(upstreamVersion("1:2.0.3-1")).toBe("2.0.3");
  });
});

describe("PYTHON_ENV", () => {
  it("pins every requirement exactly, numpy to Debian's", () => {
    expect(PYTHON_ENV.requirements.every((r) => /^[A-Za-z0-9_.-]+==\d/.test(r))).toBe(true);
    expect(PYTHON_ENV.requirements).toContain("numpy==1.24.2");
  });
});
