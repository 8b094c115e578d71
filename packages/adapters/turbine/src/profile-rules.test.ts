import { classifyStack, classifyStacks, parseCollapsed, PROFILE_CATEGORIES, sharesOf } from "@bench/core";
import { turbineProfileRules } from "./profile-rules.ts";

// Synthetic py-spy --native stacks in the shape Rust frames take (crate::module::fn (lib.so)):
// Turbine cannot run on this machine (free-threaded CPython 3.14 wheels only), so these pin the
// rules' intent, not a measured split.
const { frames } = turbineProfileRules;
const so = "(_turbine.cpython-314t-x86_64-linux-gnu.so)";
const root = `run (turbine/app.py:80);turbine::runtime::run ${so}`;

describe("turbine profile rules", () => {
  it("sorts the Rust core's frames: rdkafka fetch, Arrow JSON decode/encode, the ONNX operator, produce", () => {
    expect(
      classifyStack([...root.split(";"), `rdkafka::consumer::base_consumer::BaseConsumer::poll ${so}`, "rd_kafka_consume_batch (librdkafka.so.1)"], frames),
    ).toBe("fetch");
    expect(classifyStack([...root.split(";"), `arrow_json::reader::Decoder::decode ${so}`], frames)).toBe("decode");
    expect(classifyStack([...root.split(";"), `turbine::ml::OnnxOperator::run ${so}`, "OrtRun (libonnxruntime.so.1.32.0)"], frames)).toBe("model");
    expect(classifyStack([...root.split(";"), `arrow_json::writer::LineDelimitedWriter::write ${so}`], frames)).toBe("encode");
    expect(classifyStack([...root.split(";"), `rdkafka::producer::base_producer::BaseProducer::send ${so}`], frames)).toBe("produce");
    expect(classifyStack([...root.split(";"), `tokio::runtime::scheduler::multi_thread::worker::run ${so}`], frames)).toBe("runtime");
  });

  it("sorts the Python handler: Arrow compute features, torch's forward in the torch row", () => {
    expect(classifyStack(["Score.__call__ (onnx_features.py:30)", "divide (pyarrow/compute.py:1)"], frames)).toBe("features");
    expect(classifyStack(["score (torch_score.py:20)", "Module._call_impl (torch/nn/modules/module.py:1)"], frames)).toBe("model");
  });

  it("keeps unclaimed frames as other; shares sum to 100%", () => {
    const shares = sharesOf(classifyStacks(parseCollapsed(`${root};arrow_json::reader::Decoder::decode ${so} 3\n${root};mystery::fn ${so} 1\n`), frames));
    expect(shares.decode).toBeCloseTo(0.75);
    expect(PROFILE_CATEGORIES.reduce((a, c) => a + shares[c], 0)).toBeCloseTo(1, 12);
  });
});
