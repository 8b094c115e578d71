import { PYTHON_ENV } from "./pins.ts";

describe("PYTHON_ENV", () => {
  it("pins every requirement exactly", () => {
    for (const r of PYTHON_ENV.requirements) expect(r).toMatch(/^[A-Za-z0-9_.\-[\]]+==\d[\w.]*$/);
  });
  it("keeps Debian's numpy under Debian's torch", () => {
    expect(PYTHON_ENV.systemSitePackages).toBe(true);
    expect(PYTHON_ENV.requirements).toContain("numpy==1.24.2");
  });
});
