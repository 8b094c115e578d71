import { venvSpec } from "./venv-plan.ts";

describe("venvSpec for a free-threaded interpreter", () => {
  const python = "/opt/python3.14t/bin/python3.14t";

  it("turbine: the pinned turbine-fast with pyarrow, numpy and an ONNX Runtime new enough for its core; wheels only", () => {
    expect(venvSpec("onnx", python, {})).toEqual({
      python,
      requirements: ["turbine-fast==0.3.0a1", "pyarrow==26.0.1", "numpy==2.5.5", "onnxruntime==1.32.0"],
      pipArgs: ["--only-binary=:all:"],
    });
  });

  it("builds from the user's interpreter itself, never from Debian's site-packages", () => {
    expect(venvSpec("onnx", python, {}).systemSitePackages).toBeUndefined();
    expect(venvSpec("torch", python, {}).python).toBe(python);
  });

  it("turbine-torch: torch from the default index unless the user names a CPU-only one", () => {
    expect(venvSpec("torch", python, {})).toEqual({
      python,
      requirements: ["turbine-fast==0.3.0a1", "pyarrow==26.0.1", "numpy==2.5.5", "torch==2.15.0"],
      pipArgs: ["--only-binary=:all:"],
    });
    expect(venvSpec("torch", python, { TURBINE_TORCH_INDEX_URL: " https://mirror.example/whl/cpu " }).pipArgs).toEqual([
      "--only-binary=:all:",
      "--extra-index-url",
      "https://mirror.example/whl/cpu",
    ]);
    expect(venvSpec("onnx", python, { TURBINE_TORCH_INDEX_URL: "https://mirror.example/whl/cpu" }).pipArgs).toEqual(["--only-binary=:all:"]);
  });
});
