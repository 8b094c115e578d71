import { MACHINE_SLOWER_SHARE, MAX_NOISY_REPEATS } from "./constants.ts";
import type { SearchStep, StepOutcome } from "./step.ts";
import { RULES, verdict, type VerdictContext } from "./verdict.ts";

const run = (more: Partial<StepOutcome> = {}): StepOutcome => ({
  rate: 10_000, offeredPerSec: 10_000, consumedPerSec: 10_000, regime: "keep-up", gendataShort: false, speedIndex: 600_000, ...more,
});
const tried = (more: Partial<StepOutcome> & { slower?: string } = {}): SearchStep => ({ ...run(more), purpose: "paced" });
const fresh: VerdictContext = { tries: [], usual: 600_000 };
const saturated = { regime: "saturated" as const, consumedPerSec: 8000 };
const draining = { regime: "draining" as const, consumedPerSec: 11_000 };

describe("the verdict table", () => {
  it("has at most 12 rules, each named once with its principle, and the last always applies", () => {
    expect(RULES.length).toBeLessThanOrEqual(12);
    expect(new Set(RULES.map((r) => r.name)).size).toBe(RULES.length);
    for (const rule of RULES) expect(rule.principle.length).toBeGreaterThan(20);
    expect(RULES.at(-1)!.verdict(run(saturated), fresh)).toEqual({ kind: "fell-behind" });
  });

  it("interrupted: the bench's interruption stops the search, before anything the run says", () => {
    expect(verdict(run({ interrupted: "interrupted by SIGTERM", failed: "x", invalid: "y" }), fresh)).toEqual({
      kind: "stop", why: "the bench was interrupted by SIGTERM during the run at 10000/s",
    });
  });

  it("failed: a crashed product stops the search, its knee not withdrawn", () => {
    const v = verdict(run({ failed: "exited with code 1" }), fresh);
    expect(v).toEqual({ kind: "stop", why: "the run at 10000/s failed: exited with code 1" });
  });

  it("invalid: stops the search and withdraws the knee, even on a keep-up", () => {
    expect(verdict(run({ invalid: "lost 3" }), fresh)).toEqual({ kind: "stop", why: "the run at 10000/s was invalid: lost 3", withdraw: true });
  });

  it("unreachable: gendata short of the rate is gendata's limit, not run again for noise", () => {
    const v = verdict(run({ ...saturated, gendataShort: true, offeredPerSec: 8500, noisy: "steal 20%" }), fresh);
    expect(v).toEqual({ kind: "unreachable", why: "gendata could not reach 10000/s beside the product (it delivered 8500/s)" });
  });

  it("noisy: run again up to the bound, then stop with no figure", () => {
    const noisy = { noisy: "foreign load 30%" };
    expect(verdict(run(noisy), fresh)).toEqual({ kind: "again", why: "the machine was noisy (foreign load 30%)" });
    const before = Array.from({ length: MAX_NOISY_REPEATS - 1 }, () => tried(noisy));
    expect(verdict(run(noisy), { ...fresh, tries: before }).kind).toBe("again");
    const all = Array.from({ length: MAX_NOISY_REPEATS }, () => tried(noisy));
    const v = verdict(run(noisy), { ...fresh, tries: all });
    expect(v.kind).toBe("stop");
    expect(v.kind === "stop" && v.withdraw).toBeFalsy();
    // A quiet run after noisy ones is read as it is.
    expect(verdict(run(), { ...fresh, tries: all })).toEqual({ kind: "kept-up" });
  });

  it("kept up: only a settled keep-up keeps up", () => {
    expect(verdict(run(), fresh)).toEqual({ kind: "kept-up" });
    expect(verdict(run({ unsettled: true }), fresh).kind).toBe("again");
  });

  it("slower machine: a run that did not keep up on a markedly slower machine is run again once, after a wait", () => {
    const slow = run({ ...saturated, speedIndex: 600_000 * (1 - MACHINE_SLOWER_SHARE) - 1000 });
    const v = verdict(slow, fresh);
    expect(v.kind).toBe("again");
    expect(v.kind === "again" && v.slower?.usual).toBe(600_000);
    expect(verdict(slow, { ...fresh, tries: [tried({ ...saturated, slower: "speed index …" })] })).toEqual({ kind: "fell-behind" });
    // Within the share, or with no usual speed yet: not slower.
    expect(verdict(run({ ...saturated, speedIndex: 600_000 * (1 - MACHINE_SLOWER_SHARE) + 1000 }), fresh)).toEqual({ kind: "fell-behind" });
    expect(verdict(slow, { tries: [], usual: undefined })).toEqual({ kind: "fell-behind" });
    // A keep-up on a slower machine is a keep-up.
    expect(verdict(run({ speedIndex: 300_000 }), fresh)).toEqual({ kind: "kept-up" });
  });

  it("draining: a draining or unsettled run is run again once, then fell behind", () => {
    expect(verdict(run(draining), fresh)).toEqual({ kind: "again", why: "the run was draining or unsettled" });
    expect(verdict(run(draining), { ...fresh, tries: [tried({ unsettled: true })] })).toEqual({ kind: "fell-behind" });
    expect(verdict(run({ unsettled: true }), { ...fresh, tries: [tried(draining)] })).toEqual({ kind: "fell-behind" });
    // A noisy repeat before is no draining one.
    expect(verdict(run(draining), { ...fresh, tries: [tried({ noisy: "x" })] }).kind).toBe("again");
  });

  it("fell behind: a settled saturated run on a machine at its usual speed", () => {
    expect(verdict(run(saturated), fresh)).toEqual({ kind: "fell-behind" });
  });
});
