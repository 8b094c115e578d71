import type { ProfiledProcess, ProfileResult, RunResult } from "../results/types.ts";
import { declaredMix, describeShares, mixFromProfile, mixOf, runtimeOfThread } from "./mix.ts";

const proc = (exe: string, threads: Array<[string, number]>): ProfiledProcess => ({
  pid: 1, exe, command: exe, profiler: "none", samples: 0,
  cpuPercent: threads.reduce((a, [, c]) => a + c, 0),
  threads: threads.map(([name, cpuPercent]) => ({ name, cpuPercent })),
});
const profile = (processes: ProfiledProcess[]): ProfileResult => ({ processes } as unknown as ProfileResult);

describe("runtime mix", () => {
  it("sorts threads by what runs on them: the JVM's all JVM, librdkafka's C threads native in Python and Node", () => {
    expect(runtimeOfThread("java", "C2 CompilerThre")).toBe("jvm");
    expect(runtimeOfThread("python3.11", "python")).toBe("cpython");
    expect(runtimeOfThread("python3.11", "rdk:broker1")).toBe("native");
    expect(runtimeOfThread("python3.11", "pathway:connect")).toBe("native");
    expect(runtimeOfThread("python3.11", "pathway:work-0")).toBe("native");
    expect(runtimeOfThread("node", "node")).toBe("v8");
    expect(runtimeOfThread("node", "rdk:broker1")).toBe("native");
    expect(runtimeOfThread("risingwave", "compute")).toBe("native");
  });

  it("weighs each thread by its CPU across the processes of the tree (spark's committed profile at 80k/s)", () => {
    const mix = mixFromProfile(
      profile(
        [
          proc("java", [["C2 CompilerThre", 32], ["Executor task i", 13], ["Executor task l", 12], ["VM Thread", 2]]),
          proc("python3.11", [["python", 15]]),
          proc("python3.11", [["python", 14]]),
        ],
      ),
    );
    expect(mix?.source).toBe("profile");
    expect(mix?.shares.jvm).toBeCloseTo(59 / 88, 9);
    expect(mix?.shares.cpython).toBeCloseTo(29 / 88, 9);
    expect(describeShares(mix!.shares)).toBe("JVM 67% + CPython 33%");
  });

  it("has no mix from a profile that saw no CPU", () => {
    expect(mixFromProfile(profile([proc("python3.11", [["python", 0]])]))).toBeUndefined();
  });

  it("takes the run's own profile first, then the mix it recorded, then its row's declared one (by id, else family)", () => {
    const base = { product: "quix", family: undefined } as unknown as RunResult;
    expect(mixOf(base)).toEqual({ shares: { cpython: 0.95, native: 0.05 }, source: "declared" });
    const recorded = { ...base, yardstick: { before: {}, after: {}, mix: { shares: { cpython: 1 }, source: "profile" as const } } };
    expect(mixOf(recorded)?.shares).toEqual({ cpython: 1 });
    const profiled = { ...recorded, profile: profile([proc("python3.11", [["python", 3], ["rdk:broker1", 1]])]) };
    expect(mixOf(profiled)?.shares).toEqual({ cpython: 0.75, native: 0.25 });
    expect(declaredMix({ product: "kafka-streams-variant", family: "kafka-streams" })?.shares).toEqual({ jvm: 1 });
    expect(declaredMix({ product: "risingwave" })).toBeUndefined();
  });
});
