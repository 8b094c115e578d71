import { chosenDrain, drainAgain, drainCeiling, drainHolds, keptPaceWithFill, noCeiling } from "./drain-choice.ts";
import type { RunResult } from "../results/types.ts";

const drain = (consumedPerSec: number, opts: { noisy?: boolean; settled?: boolean; status?: RunResult["status"] } = {}): RunResult =>
  ({
    product: "p",
    status: opts.status ?? "ok",
    settled: opts.settled ?? true,
    conditions: { noisy: opts.noisy ?? false },
    throughput: { consumedPerSec },
    prefill: { records: 1_000_000, ratePerSec: 150_000 },
  }) as unknown as RunResult;

describe("the drain the fast search reads", () => {
  it("holds when settled and quiet; a noisy or unsettled drain only sets where the paced steps begin", () => {
    expect(drainHolds(drain(50_000))).toBe(true);
    expect(drainHolds(drain(50_000, { noisy: true }))).toBe(false);
    expect(drainHolds(drain(50_000, { settled: false }))).toBe(false);
  });

  it("gives no ceiling when it failed, was invalid, measured no rate or was interrupted, and says which", () => {
    expect(noCeiling(drain(50_000), undefined)).toBeUndefined();
    expect(noCeiling({ ...drain(0), status: "failed", reason: "exited 1\nlog tail" } as RunResult, undefined)).toBe("the drain failed: exited 1");
    expect(noCeiling(drain(50_000, { status: "invalid" }), undefined)).toBe("the drain was invalid: no reason recorded");
    expect(noCeiling(drain(0), undefined)).toBe("the drain measured no drain rate");
    expect(noCeiling(drain(50_000), "interrupted")).toBe("the bench was interrupted during the drain");
  });

  it("is run once more only when the machine was busy during it and it measured a rate", () => {
    expect(drainAgain(drain(12_687, { noisy: true }), undefined)).toBe(true);
    expect(drainAgain(drain(50_000), undefined)).toBe(false);
    // Unsettled but quiet (a JVM still warming): the paced steps begin under it, as before.
    expect(drainAgain(drain(27_158, { settled: false }), undefined)).toBe(false);
    expect(drainAgain(drain(12_687, { noisy: true }), "interrupted")).toBe(false);
    expect(drainAgain({ ...drain(0, { noisy: true }), status: "failed" } as RunResult, undefined)).toBe(false);
  });

  it("reads the repeat when it holds, even when slower; else the faster of the two", () => {
    const busy = drain(12_687, { noisy: true });
    const quiet = drain(11_000);
    expect(chosenDrain(busy, quiet, undefined)).toBe(quiet);
    const fasterBusy = drain(23_000, { noisy: true });
    expect(chosenDrain(busy, fasterBusy, undefined)).toBe(fasterBusy);
    expect(chosenDrain(fasterBusy, busy, undefined)).toBe(fasterBusy);
  });

  it("reads a repeat that gives no ceiling, so the search ends saying why", () => {
    const busy = drain(12_687, { noisy: true });
    const failed = { ...drain(0), status: "failed", reason: "exited 1" } as RunResult;
    expect(chosenDrain(busy, failed, undefined)).toBe(failed);
    const cut = drain(30_000, { noisy: true });
    expect(chosenDrain(busy, cut, "interrupted")).toBe(cut);
  });

  it("takes gendata's fill rate as a ceiling that is gendata's when the product kept pace with the fill and left the window nothing", () => {
    const keptPace = (besideProduct: "filled" | "outpaced" | "cap", consumedPerSec = 0): RunResult =>
      ({ ...drain(consumedPerSec, { settled: false }), prefill: { records: 4_600_000, ratePerSec: 114_000, besideProduct } }) as unknown as RunResult;
    expect(keptPaceWithFill(keptPace("cap"))).toBe(true);
    expect(noCeiling(keptPace("cap"), undefined)).toBeUndefined();
    expect(drainCeiling(keptPace("cap"))).toEqual({ rate: 114_000, byGendata: true });
    expect(drainCeiling(keptPace("outpaced"))).toEqual({ rate: 114_000, byGendata: true });
    // A fill that reached its backlog, then a window that read nothing: no rate, and no stand-in for one.
    expect(keptPaceWithFill(keptPace("filled"))).toBe(false);
    expect(noCeiling(keptPace("filled"), undefined)).toBe("the drain measured no drain rate");
    // A window that read a rate is the ceiling, gendata's only when the fill was outpaced.
    expect(drainCeiling(keptPace("cap", 90_000))).toEqual({ rate: 90_000, byGendata: false });
    expect(drainCeiling(keptPace("outpaced", 120_000))).toEqual({ rate: 120_000, byGendata: true });
  });
});
