import { PYTHON_ENV } from "./pins.ts";

describe("PYTHON_ENV", () => {
  it("pins every requirement exactly, numpy to Debian's", () => {
    expect(PYTHON_ENV.requirements.every((r) => /^[A-Za-z0-9_.-]+==\d/.test(r))).toBe(true);
    expect(PYTHON_ENV.requirements).toContain("numpy==1.24.2");
  });
});
