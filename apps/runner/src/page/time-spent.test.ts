import type { BenchResults, RunResult } from "../results/types.ts";
import { timeSpent, timeSpentPhrase } from "./time-spent.ts";

/** A run started `atSec` into the sitting, with `spanSec` of ticks. */
function run(atSec: number, fields: Partial<RunResult>, spanSec = 10): RunResult {
  const ticks = [{ t: 0 }, { t: spanSec }] as RunResult["ticks"];
  return { status: "ok", startedAt: new Date(Date.UTC(2026, 11, 6, 12) + atSec * 1000).toISOString(), ticks, ...fields } as RunResult;
}

/** A sitting whose every round had a session of its own (its record names the searches' order). */
const sitting = (runs: RunResult[]): BenchResults => ({ runs, rounds: { searchOrder: ["row"] } }) as unknown as BenchResults;
/** A sitting written when round 1 was a window in each search's session (its record names no search order). */
const roundOneInSearch = (runs: RunResult[]): BenchResults => ({ runs, rounds: { order: [] } }) as unknown as BenchResults;

describe("timeSpent", () => {
  it("counts each run from its start to the next run's, and the last by its own ticks", () => {
    const spent = timeSpent(
      roundOneInSearch([
        run(0, { sweepPurpose: "drain" }),
        run(60, { sweepPurpose: "paced" }),
        run(90, { sweepPurpose: "paced" }),
        run(120, { sweepPurpose: "round", round: 1 }),
        run(150, { sweepPurpose: "round", round: 2 }),
        run(210, { sweepPurpose: "round", round: 3 }, 25),
      ]),
    );
    expect(Object.fromEntries(spent)).toEqual({ drains: 60, "paced steps": 60, "round 1": 30, "later rounds": 85 });
  });

  it("counts every round as one part where each round had a session of its own", () => {
    const runs = [run(0, { sweepPurpose: "drain" }), run(60, { sweepPurpose: "round", round: 1 }), run(100, { sweepPurpose: "round", round: 2 }, 20)];
    const spent = timeSpent(sitting(runs));
    expect(Object.fromEntries(spent)).toEqual({ drains: 60, rounds: 60 });
  });

  it("orders runs by their start, whatever order the file holds them in", () => {
    const spent = timeSpent(sitting([run(30, { sweepPurpose: "paced" }, 5), run(0, { sweepPurpose: "drain" })]));
    expect(Object.fromEntries(spent)).toEqual({ drains: 30, "paced steps": 5 });
  });

  it("keeps a search's window at the knee that --also-at-knee tagged as round 1 with the paced steps", () => {
    const spent = timeSpent(roundOneInSearch([run(0, { sweepPurpose: "paced", round: 1, loadShare: 1 }), run(40, { sweepPurpose: "round", round: 1 }, 20)]));
    expect(Object.fromEntries(spent)).toEqual({ "paced steps": 40, "round 1": 20 });
  });

  it("leaves out skipped rows and runs of other kinds", () => {
    const spent = timeSpent(sitting([run(0, { status: "skipped", sweepPurpose: "drain" }), run(10, { sweepPurpose: "confirm" }, 5)]));
    expect(spent.size).toBe(0);
  });
});

describe("timeSpentPhrase", () => {
  it("names each part in minutes, in the order a sitting runs them", () => {
    const phrase = timeSpentPhrase(sitting([run(0, { sweepPurpose: "drain" }), run(90, { sweepPurpose: "round", round: 2 }, 30)]));
    expect(phrase).toBe("drains 1.5 min, rounds 0.5");
  });

  it("has nothing to say of a file with no run of the main command's kinds", () => {
    expect(timeSpentPhrase(sitting([]))).toBeUndefined();
  });
});
