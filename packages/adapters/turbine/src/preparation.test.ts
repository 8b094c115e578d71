import { noWheelReason, preparationFrom } from "./preparation.ts";

const reported = { python: "3.14.10", turbine: "0.4.0a1", torch: "2.14.1a0+gitunknown", pyarrow: "25.0.0", onnxruntime: "1.23.2" };

describe("preparationFrom", () => {
  it("turbine: shows onnxruntime, not torch, and says the feature columns are published", () => {
    const prep = preparationFrom("onnx", reported, "2.14.1+dfsg-1");
    expect(prep.ok && prep.versions).toEqual({ turbine: "0.4.0a1", python: "3.14.10", pyarrow: "25.0.0", onnxruntime: "1.23.2" });
    const devs = prep.ok ? prep.deviations ?? [] : [];
    expect(devs.some((d) => d.includes("GIL build") && d.includes("3.14t"))).toBe(true);
    expect(devs.some((d) => d.includes("feature columns are published"))).toBe(true);
    expect(devs.some((d) => d.startsWith("torch"))).toBe(false);
  });
  it("turbine-torch: Debian's torch release, and the forced torch deviation", () => {
    const prep = preparationFrom("torch", reported, "2.14.1+dfsg-1");
    expect(prep.ok && prep.versions.torch).toBe("2.14.1");
    expect(prep.ok && (prep.deviations ?? []).some((d) => d.includes("torch 2.14.1") && d.includes("1.13.1"))).toBe(true);
  });
  it("names what is missing", () => {
    expect(preparationFrom("torch", { ...reported, torch: "missing" }, undefined)).toEqual({
      ok: false,
      reason: "missing from the Turbine root's venv: torch",
    });
  });
});

describe("noWheelReason", () => {
  it("states pip's error, the interpreter, and what PyPI and Debian do offer", () => {
    const reason = noWheelReason({
      pin: "0.4.0a1",
      pipError: ["ERROR: No matching distribution found for turbine-fast==0.4.0a1"],
      interpreter: "3.14.10 GIL cpython-314",
      freeThreadedVersions: "0.3.0a1, 0.2.2a2",
      freeThreadedPackages: [],
    });
    expect(reason).toContain("turbine-fast==0.4.0a1 cannot be installed for the sid root's CPython 3.14.10 GIL cpython-314");
    expect(reason).toContain("No matching distribution found");
    expect(reason).toContain("cp314-cp314t): 0.3.0a1, 0.2.2a2");
    expect(reason).toContain("No free-threaded CPython 3.14 is reachable here");
  });
  it("says so when PyPI has no 3.14 wheel at all", () => {
    const reason = noWheelReason({ pin: "9", pipError: [], interpreter: "x", freeThreadedVersions: undefined, freeThreadedPackages: ["python3.14-nogil"] });
    expect(reason).toContain("no turbine-fast wheel for CPython 3.14 at all");
    expect(reason).toContain("python3.14-nogil");
  });
});
