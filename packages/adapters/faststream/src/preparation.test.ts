import { preparationFrom } from "./preparation.ts";

const reported = { python: "3.11.2", faststream: "0.7.8", aiokafka: "0.14.0", torch: "1.13.0a0+gitunknown" };

describe("preparationFrom", () => {
  it("shows Debian's torch release rather than its metadata", () => {
    const prep = preparationFrom(reported, "1.13.1", "/venv/bin/python");
    expect(prep).toEqual({
      ok: true,
      versions: { python: "3.11.2", faststream: "0.7.8", aiokafka: "0.14.0", torch: "1.13.1" },
      deviations: expect.any(Array),
      found: { python: "/venv/bin/python" },
    });
  });
  it("falls back to torch's own metadata without dpkg", () => {
    const prep = preparationFrom(reported, undefined, "/venv/bin/python");
    expect(prep.ok && prep.versions.torch).toBe("1.13.0a0+gitunknown");
  });
  it("says how to get torch when it is missing", () => {
    const prep = preparationFrom({ ...reported, torch: "missing" }, undefined, "/venv/bin/python");
    expect(prep).toEqual({ ok: false, reason: expect.stringContaining("python3-torch") });
  });
  it("names any other missing distribution", () => {
    const prep = preparationFrom({ ...reported, aiokafka: "missing" }, "1.13.1+dfsg-4", "/venv/bin/python");
    expect(prep).toEqual({ ok: false, reason: "missing from the FastStream venv: aiokafka" });
  });
});
