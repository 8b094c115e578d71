import { readFileSync } from "node:fs";
import { join } from "node:path";
import { classifyStack, classifyStacks, classifyThread, parseCollapsed, PROFILE_CATEGORIES, sharesOf } from "@bench/core";
import { bytewaxProfileRules } from "./profile-rules.ts";

// A py-spy `record --native --format raw --rate 50` profile of this row (5,000/s for 30 s, a
// shared 2-core machine), trimmed to the stacks with at least 2 samples.
const recorded = parseCollapsed(readFileSync(join(import.meta.dirname, "__fixtures__", "pyspy-bytewax-5000.txt"), "utf8"));
const { frames, threads } = bytewaxProfileRules;

/** Frames as py-spy names them in this row: the Rust worker's, the dataflow steps', the app's. */
const RUN = [
  "<module> (run.py:355)",
  "bytewax::run::run_main::h0 (_bytewax.cpython-311-x86_64-linux-gnu.so)",
  "timely::worker::Worker$LT$A$GT$::step_or_park::h1 (_bytewax.cpython-311-x86_64-linux-gnu.so)",
];
const STEP = [...RUN, "bytewax::operators::flat_map_batch::h2 (_bytewax.cpython-311-x86_64-linux-gnu.so)", "Scorer.__call__ (main.py:176)"];

describe("bytewax profile rules on a recorded py-spy profile", () => {
  const shares = sharesOf(classifyStacks(recorded, frames));

  it("covers every sample: shares sum to 100%, other included", () => {
    expect(PROFILE_CATEGORIES.reduce((a, c) => a + shares[c], 0)).toBeCloseTo(1, 12);
  });

  it("claims the recorded stacks: what no rule names stays small", () => {
    expect(shares.other).toBeLessThan(0.1);
  });

  it("finds every stage of the pipeline in the recording", () => {
    for (const category of ["fetch", "decode", "model", "encode", "produce", "runtime"] as const) expect(shares[category]).toBeGreaterThan(0);
  });
});

describe("bytewax profile rules on single stacks", () => {
  it("puts the source's poll in fetch and the sink's produce and flush in produce", () => {
    expect(
      classifyStack(
        [
          ...RUN,
          "StoppablePartition.next_batch (main.py:104)",
          "_KafkaSourcePartition.next_batch (connectors/kafka/__init__.py:248)",
          "Consumer_consume (confluent_kafka/cimpl.cpython-311-x86_64-linux-gnu.so)",
        ],
        frames,
      ),
    ).toBe("fetch");
    expect(
      classifyStack(
        [
          ...RUN,
          "_KafkaSinkPartition.write_batch (connectors/kafka/__init__.py:494)",
          "Producer_flush (confluent_kafka/cimpl.cpython-311-x86_64-linux-gnu.so)",
        ],
        frames,
      ),
    ).toBe("produce");
    expect(classifyThread("rdk:broker1", threads)).toBe("fetch");
  });

  it("sorts the batch step's stages: json parsing and validation, features, the forward, encoding", () => {
    expect(
      classifyStack(
        [
          ...STEP,
          "Scorer.decode (main.py:140)",
          "loads (json/__init__.py:346)",
          "JSONDecoder.raw_decode (json/decoder.py:353)",
          "0x1 (_json.cpython-311-x86_64-linux-gnu.so)",
        ],
        frames,
      ),
    ).toBe("decode");
    expect(classifyStack([...STEP, "Scorer.decode (main.py:144)", "record_problem (bench_kit.py:68)"], frames)).toBe("decode");
    expect(
      classifyStack(
        [...STEP, "Scorer.features (main.py:160)", "torch::utils::tensor_ctor (libtorch_python.so.1.13.0)", "0x2 (libtorch_cpu.so.1.13.0)"],
        frames,
      ),
    ).toBe("features");
    expect(
      classifyStack([...STEP, "Module._call_impl (torch/nn/modules/module.py:1194)", "at::native::linear (libtorch_cpu.so.1.13.0)"], frames),
    ).toBe("model");
    expect(
      classifyStack([...STEP, "Scorer.encode (main.py:168)", "dumps (json/__init__.py:231)", "JSONEncoder.encode (json/encoder.py:200)"], frames),
    ).toBe("encode");
  });

  it("calls Rust work with no Python step beneath it runtime (parking, progress, the recovery snapshots) and KafkaSource's stats callback runtime, the " +
    "step's own glue other", () => {
    expect(classifyStack([...RUN, "std::thread::park_timeout (mod.rs:1135)", "syscall (libc.so.6)"], frames)).toBe("runtime");
    expect(
      classifyStack(
        [
          ...RUN,
          "rusqlite::Connection::execute_batch::h3 (_bytewax.cpython-311-x86_64-linux-gnu.so)",
          "unixSync (_bytewax.cpython-311-x86_64-linux-gnu.so)",
          "fsync (libc.so.6)",
        ],
        frames,
      ),
    ).toBe("runtime");
    expect(classifyStack([...STEP, "0x3 (libc.so.6)"], frames)).toBe("other");
    expect(
      classifyStack(
        [
          ...RUN,
          "_KafkaSourcePartition.next_batch (connectors/kafka/__init__.py:248)",
          "_KafkaSourcePartition._process_stats (connectors/kafka/__init__.py:230)",
          "loads (json/__init__.py:346)",
        ],
        frames,
      ),
    ).toBe("runtime");
  });
});
