import {
  classifyStack,
  classifyStacks,
  classifyThread,
  formatCollapsed,
  parseCollapsed,
  PROFILE_CATEGORIES,
  PYTHON_COMMON_FRAMES,
  sharesOf,
  type FrameRule,
} from "./profile.ts";

const rules: FrameRule[] = [
  { category: "produce", frame: /^publish \(/ },
  { category: "model", frame: /\(libtorch/ },
  { category: "runtime", frame: /\(asyncio\/base_events\.py/, innermost: true },
];

describe("parseCollapsed", () => {
  it("reads root-first stacks and their counts, frames may hold spaces", () => {
    const stacks = parseCollapsed("main (app.py:1);publish (pub.py:3) 7\nmain (app.py:1) 2\n\nbroken line\n");
    expect(stacks).toEqual([
      { frames: ["main (app.py:1)", "publish (pub.py:3)"], count: 7 },
      { frames: ["main (app.py:1)"], count: 2 },
    ]);
    expect(parseCollapsed(formatCollapsed(stacks))).toEqual(stacks);
  });
});

describe("classifyStack", () => {
  it("lets the innermost claimed frame decide: uuid4 under publish is produce work", () => {
    expect(classifyStack(["run_forever (asyncio/base_events.py:607)", "publish (pub.py:3)", "uuid4 (uuid.py:723)"], rules)).toBe("produce");
    expect(classifyStack(["publish (pub.py:3)", "forward (torch/nn/linear.py:1)", "addmm (libtorch_cpu.so)"], rules)).toBe("model");
  });

  it("gives the event loop only its own work, not the unclaimed handlers it runs", () => {
    expect(classifyStack(["run_forever (asyncio/base_events.py:607)", "select (selectors.py:1)", "0x7f (libc.so.6)"], rules)).toBe("other");
    expect(classifyStack(["run_forever (asyncio/base_events.py:607)", "epoll_wait (libc.so.6)"], rules)).toBe("runtime");
    expect(classifyStack(["run_forever (asyncio/base_events.py:607)", "handler (app.py:9)"], rules)).toBe("other");
  });

  it("lets an anywhere rule claim a stack whose deeper frames another rule claims", () => {
    const withTensor: FrameRule[] = [{ category: "features", frame: /tensor_ctor/, anywhere: true }, ...rules];
    expect(classifyStack(["score (s.py:50)", "tensor_ctor (libtorch_python.so)", "0x2 (libtorch_cpu.so)"], withTensor)).toBe("features");
    expect(classifyStack(["score (s.py:54)", "0x2 (libtorch_cpu.so)"], withTensor)).toBe("model");
  });

  it("reports what no rule claims as other", () => {
    expect(classifyStack(["mystery (x.py:1)"], rules)).toBe("other");
  });
});

describe("sharesOf", () => {
  it("sums to 1 with other kept as its own share", () => {
    const counts = classifyStacks(parseCollapsed("publish (p.py:1) 3\nmystery (x.py:1) 1\nf (a.py:1);g (libtorch_cpu.so) 4\n"), rules);
    const shares = sharesOf(counts);
    expect(PROFILE_CATEGORIES.reduce((a, c) => a + shares[c], 0)).toBeCloseTo(1, 12);
    expect(shares.other).toBeCloseTo(1 / 8);
    expect(shares.produce).toBeCloseTo(3 / 8);
    expect(shares.model).toBeCloseTo(4 / 8);
  });

  it("is all zero, not NaN, when nothing was sampled", () => {
    const shares = sharesOf(classifyStacks([], rules));
    expect(PROFILE_CATEGORIES.every((c) => shares[c] === 0)).toBe(true);
  });
});

describe("classifyThread", () => {
  it("claims threads by name and leaves the rest to the profiler", () => {
    const threads = [{ category: "fetch" as const, thread: /^rdk:/ }];
    expect(classifyThread("rdk:broker1", threads)).toBe("fetch");
    expect(classifyThread("python3.11", threads)).toBeUndefined();
    expect(classifyThread("rdk:main", undefined)).toBeUndefined();
  });
});

describe("PYTHON_COMMON_FRAMES on the kit's steps (models/bench_kit.py)", () => {
  const kit = (frame: string, line: number): string => `${frame} (bench_kit.py:${line})`;

  it("counts the feature tensor as features down to libtorch's arithmetic, and the forward as the model", () => {
    expect(
      classifyStack(
        [
          "main (main.py:9)",
          kit("RiskScorer.risks", 1),
          kit("RiskScorer.risks_of_metrics", 2),
          kit("RiskScorer.features", 3),
          "at::native::div (libtorch_cpu.so.1.13.0)",
        ],
        PYTHON_COMMON_FRAMES,
      ),
    ).toBe("features");
    expect(
      classifyStack(
        ["main (main.py:9)", kit("RiskScorer.risks", 1), kit("RiskScorer.risks.<locals>.<listcomp>", 1), kit("metrics_of", 4)],
        PYTHON_COMMON_FRAMES,
      ),
    ).toBe("features");
    expect(
      classifyStack(
        [
          "main (main.py:9)",
          kit("RiskScorer.risks", 1),
          kit("RiskScorer.risks_of_metrics", 2),
          "Module._call_impl (torch/nn/modules/module.py:1194)",
          "at::native::linear (libtorch_cpu.so.1.13.0)",
        ],
        PYTHON_COMMON_FRAMES,
      ),
    ).toBe("model");
  });

  it("counts the record check and the skip line as decode, the output record as encode", () => {
    expect(
      classifyStack(["decode (main.py:5)", kit("RecordDecoder.decode", 1), kit("record_problem", 2), kit("is_finite_number", 3)], PYTHON_COMMON_FRAMES),
    ).toBe("decode");
    expect(
      classifyStack(["decode (main.py:5)", kit("RecordDecoder.decode", 1), kit("RecordDecoder.skip", 2), "write (libc.so.6)"], PYTHON_COMMON_FRAMES),
    ).toBe("decode");
    expect(classifyStack(["encode (main.py:5)", kit("output_record", 1)], PYTHON_COMMON_FRAMES)).toBe("encode");
    expect(
      classifyStack(
        ["next_batch (main.py:5)", kit("ConsumedCounter.write_when_due", 1), kit("ConsumedCounter.write", 2), kit("write_atomically", 3)],
        PYTHON_COMMON_FRAMES,
      ),
    ).toBe("runtime");
  });
});
