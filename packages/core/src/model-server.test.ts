import { modelServerFacts } from "./model-server.ts";
import { KSERVE_VERSION, MODEL_SERVER_REQUIREMENTS } from "./model-server-pins.ts";
import { ONNXRUNTIME_WHEEL_VERSION } from "./onnxruntime-version.ts";

describe("the model server's pins", () => {
  it("take ONNX Runtime at the wheel the native row and the model alone take", () => {
    expect(MODEL_SERVER_REQUIREMENTS).toContain(`onnxruntime==${ONNXRUNTIME_WHEEL_VERSION}`);
    expect(MODEL_SERVER_REQUIREMENTS).toContain(`kserve==${KSERVE_VERSION}`);
  });

  it("pin every distribution exactly, once", () => {
    for (const pin of MODEL_SERVER_REQUIREMENTS) expect(pin).toMatch(/^[A-Za-z0-9_.-]+==[0-9][0-9A-Za-z.]*$/);
    const names = MODEL_SERVER_REQUIREMENTS.map((pin) => pin.split("==")[0]?.toLowerCase().replace(/_/g, "-"));
    expect(new Set(names).size).toBe(names.length);
  });
});

describe("modelServerFacts", () => {
  it("states the server, its version, backend, threads and batching from the venv's versions", () => {
    const facts = modelServerFacts({ kserve: "0.21.0", onnxruntime: "1.31.1" });
    expect(facts.version).toBe("0.21.0");
    expect(facts.backend).toMatch(/^ONNX Runtime 1\.31\.1 /);
    expect(facts.threads).toMatch(/1 intra-op/);
    expect(facts.batching).toMatch(/^none across requests/);
    expect(facts.protocol).toMatch(/KServe v2\) over gRPC/);
  });
});
