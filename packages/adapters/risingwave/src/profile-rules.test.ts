import { classifyStack } from "@bench/core";
import { risingwaveProfileRules } from "./profile-rules.ts";

// Synthetic py-spy stacks of the arrow-udf server (RisingWave cannot run on this machine): only
// the UDF server is Python; the server binary's CPU is "other" by construction (no profiler).
const { frames } = risingwaveProfileRules;

describe("risingwave profile rules", () => {
  it("sorts the UDF server: numpy features, torch model, Flight/Arrow transport as overhead", () => {
    expect(classifyStack(["do_exchange (arrow_udf/__init__.py:1)", "risk (udf_server.py:34)", "clip (numpy/core/fromnumeric.py:1)"], frames)).toBe("features");
    expect(
      classifyStack(["do_exchange (arrow_udf/__init__.py:1)", "risk (udf_server.py:36)", "Module._call_impl (torch/nn/modules/module.py:1)"], frames),
    ).toBe("model");
    expect(classifyStack(["serve (pyarrow/flight.py:1)", "do_exchange (arrow_udf/__init__.py:1)"], frames)).toBe("runtime");
    expect(classifyStack(["mystery (x.py:1)"], frames)).toBe("other");
  });
});
