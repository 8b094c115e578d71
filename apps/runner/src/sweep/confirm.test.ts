import { readFileSync } from "node:fs";
import { join } from "node:path";
import { confirmKnee, costsAt, costsHold, microsList } from "./confirm.ts";
import type { SearchStep, StepOutcome } from "./step.ts";

/** The recorded sweep behind the confirm's cost rule: confluent-kafka on an Intel Xeon whose speed moved 15–20 % in minutes. */
const intel = JSON.parse(readFileSync(join(import.meta.dirname, "__fixtures__", "intel-sweep-2026-12-01.json"), "utf8")) as {
  products: Record<"node" | "confluent-kafka", { steps: SearchStep[] }>;
};

const keptUp = (micros: number): SearchStep => ({
  rate: 10_000, offeredPerSec: 10_000, consumedPerSec: 10_000, regime: "keep-up", gendataShort: false, cpuMicrosPerInference: micros, purpose: "confirm",
});

describe("the confirm's cost rule", () => {
  it("confluent-kafka's three runs at 80,000/s disagree raw (7.5 / 9.3 / 9.1 µs) and agree at the reference speed", () => {
    const at80k = intel.products["confluent-kafka"].steps.filter((s) => s.rate === 80_000);
    expect(at80k).toHaveLength(3);
    const costs = costsAt(at80k, 80_000);
    const [lowest, ...rest] = [...costs.raw].sort((a, b) => a - b);
    expect(rest.every((c) => c > lowest! * 1.1)).toBe(true);
    expect(Math.max(...costs.atReference!) / Math.min(...costs.atReference!)).toBeLessThan(1.05);
    expect(costsHold(costs)).toBe(true);
    const withoutSpeed = at80k.map(({ speedIndex: _s, ...s }) => s);
    expect(costsAt(withoutSpeed, 80_000).atReference).toBeUndefined();
    expect(costsHold(costsAt(withoutSpeed, 80_000))).toBe(true); // 9.3 and 9.1 agree raw
  });

  it("costs that agree raw hold even when the index's swings make them disagree at the reference speed", () => {
    expect(costsHold({ raw: [16.0, 16.9], atReference: [6.9, 10.7] })).toBe(true);
    expect(microsList({ raw: [16.0, 16.9], atReference: [6.9, 10.7] })).toBe("16.0 / 16.9 µs per inference");
    expect(costsHold({ raw: [16.0, 19.6], atReference: [6.9, 10.7] })).toBe(false);
    expect(microsList({ raw: [7.49, 9.3], atReference: [7.02, 6.99] })).toBe("7.0 / 7.0 µs per inference at the reference speed (7.5 / 9.3 raw)");
  });
});

describe("the confirm", () => {
  /** Each measure appends its step, as the search does, and answers from `answers` in turn. */
  function measured(first: SearchStep, answers: Array<{ kind: "kept-up" | "fell-behind"; micros?: number }>) {
    const steps: SearchStep[] = [first];
    let i = 0;
    const measure = async (rate: number) => {
      const a = answers[i++]!;
      const step: StepOutcome = a.kind === "kept-up" ? keptUp(a.micros!) : { ...keptUp(10), regime: "saturated", consumedPerSec: rate * 0.8 };
      steps.push({ ...step, purpose: "confirm" });
      return { kind: a.kind } as const;
    };
    return { steps, measure, calls: () => i };
  }

  it("holds when the repeat keeps up at the same cost", async () => {
    const m = measured(keptUp(10), [{ kind: "kept-up", micros: 10.5 }]);
    expect(await confirmKnee(10_000, m.measure, m.steps)).toEqual({ kind: "held", why: "10000/s held on a repeat at 10.0 / 10.5 µs per inference" });
  });

  it("does not hold when the repeat falls behind: the search goes on under it", async () => {
    const m = measured(keptUp(10), [{ kind: "fell-behind" }]);
    expect(await confirmKnee(10_000, m.measure, m.steps)).toEqual({ kind: "not held", verdict: { kind: "fell-behind" } });
  });

  it("runs once more when the repeat's cost disagrees, and holds when the third agrees with either", async () => {
    const m = measured(keptUp(10), [{ kind: "kept-up", micros: 14 }, { kind: "kept-up", micros: 14.5 }]);
    expect((await confirmKnee(10_000, m.measure, m.steps)).kind).toBe("held");
    expect(m.calls()).toBe(2);
  });

  it("stays unsure, naming the costs, when they never agree", async () => {
    const m = measured(keptUp(10), [{ kind: "kept-up", micros: 14 }, { kind: "kept-up", micros: 18 }]);
    const c = await confirmKnee(10_000, m.measure, m.steps);
    expect(c).toEqual({
      kind: "unsure",
      why: "10000/s kept up on its repeats but its cost did not repeat (10.0 / 14.0 / 18.0 µs per inference, more than 10 % apart)",
    });
  });
});
