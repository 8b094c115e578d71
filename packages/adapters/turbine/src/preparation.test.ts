import { atLeast, preparationFrom } from "./preparation.ts";

const PY = "/cache/venv-x/bin/python";
const reported = { python: "3.14.2t", turbine: "0.3.0a1", torch: "2.15.0", pyarrow: "26.0.1", onnxruntime: "1.32.0" };

describe("preparationFrom", () => {
  it("turbine: shows onnxruntime, not torch, and says the feature columns are published", () => {
    const prep = preparationFrom("onnx", reported, PY);
    expect(prep.ok && prep.versions).toEqual({ turbine: "0.3.0a1", python: "3.14.2t", pyarrow: "26.0.1", onnxruntime: "1.32.0" });
    const devs = prep.ok ? prep.deviations ?? [] : [];
    expect(devs.some((d) => d.includes("feature columns are published"))).toBe(true);
    expect(devs.some((d) => d.startsWith("torch"))).toBe(false);
    // The rows now run on the seed's kind of interpreter: no GIL deviation.
    expect(devs.some((d) => /GIL/.test(d))).toBe(false);
    // start() runs the venv prepare() built, without building it again.
    expect(prep.ok && prep.found).toEqual({ python: PY });
  });
  it("turbine: refuses an ONNX Runtime older than Turbine's core binds to", () => {
    expect(preparationFrom("onnx", { ...reported, onnxruntime: "1.23.2" }, PY)).toEqual({
      ok: false,
      reason: "onnxruntime 1.23.2 in the Turbine venv: Turbine's compiled core needs the ONNX Runtime library at 1.27 or newer",
    });
  });
  it("turbine-torch: the venv's torch, and the torch deviation", () => {
    const prep = preparationFrom("torch", reported, PY);
    expect(prep.ok && prep.versions.torch).toBe("2.15.0");
    expect(prep.ok && (prep.deviations ?? []).some((d) => d.includes("torch 2.15.0") && d.includes("1.13.1"))).toBe(true);
  });
  it("names what is missing", () => {
    expect(preparationFrom("torch", { ...reported, torch: "missing" }, PY)).toEqual({ ok: false, reason: "missing from the Turbine venv: torch" });
  });
});

describe("atLeast", () => {
  it("compares numerically, part by part", () => {
    expect(atLeast("1.32.0", "1.27")).toBe(true);
    expect(atLeast("1.27", "1.27")).toBe(true);
    expect(atLeast("1.9.0", "1.27")).toBe(false);
    expect(atLeast("2.0.0", "1.27")).toBe(true);
    expect(atLeast("dev", "1.27")).toBe(false);
  });
});
