import { PYTHON_ENV, releaseVersion } from "./pins.ts";

describe("releaseVersion", () => {
  it("cuts Debian's revision and upstream suffix", () => {
    expect(releaseVersion("1.13.1+dfsg-4")).toBe("1.13.1");
    expect(releaseVersion("1:2.0.3-1")).toBe("2.0.3");
  });
  it("cuts pre-release and local tails", () => {
    expect(releaseVersion("1.13.0a0+gitunknown")).toBe("1.13.0");
  });
  it("leaves a plain version and an unparseable one alone", () => {
    expect(releaseVersion("0.7.8")).toBe("0.7.8");
    expect(releaseVersion("unknown")).toBe("unknown");
  });
});

describe("PYTHON_ENV", () => {
  it("pins every requirement exactly", () => {
    for (const r of PYTHON_ENV.requirements) expect(r).toMatch(/^[A-Za-z0-9_.\-[\]]+==\d[\w.]*$/);
  });
  it("keeps Debian's numpy under Debian's torch", () => {
    expect(PYTHON_ENV.systemSitePackages).toBe(true);
    expect(PYTHON_ENV.requirements).toContain("numpy==1.24.2");
  });
});
