import type { RunResult } from "../results/types.ts";
import { countingRun as run, resultsOf } from "./__fixtures__/counting-run.ts";
import { answerSection, driftNote, rankRows } from "./answer.ts";

const native = { floorFor: "native" };

describe("the answer's cost as a multiple of the native floor", () => {
  const runs = [
    run("rust", 40_000, 2.5, native),
    run("rust", 10_000, 4, native),
    run("plain", 40_000, 10, { floorFor: "python" }),
    run("framework", 10_000, 20),
    run("jvm", 80_000, 7),
  ];
  const results = resultsOf(runs);

  it("divides each row's median by the native row's, each as ranked (at its own rate or knee)", () => {
    const ranked = rankRows(results, [runs[0], runs[2], runs[3], runs[4]] as RunResult[]);
    expect(ranked.map((r) => [r.run.product, r.timesNative])).toEqual([
      ["rust", 1],
      ["jvm", 2.8],
      ["plain", 4],
      ["framework", 8],
    ]);
  });

  it("adds the column and its note only when the page has a native floor", () => {
    const text = answerSection(results, [runs[0], runs[2], runs[3], runs[4]] as RunResult[], []).join("\n");
    expect(text).toMatch(/\| rank \| product \| at rate\/s \| µs CPU \/ inference \(median, range\) \| µs @ ref \| × native floor \|/);
    expect(text).toMatch(/\| 3 \| plain \| 40,000 \| 10\.00 \(10\.00\) \| [^|]+ \| 4\.00× \|/);
    expect(text).toMatch(/\| 2 \| jvm \| 80,000 \| 7\.00 \(7\.00\) \| [^|]+ \| 2\.80× \|/);
    expect(text).toContain("× native floor: the row's median µs per inference over the native row's, each as ranked above");

    const withoutNative = answerSection(resultsOf([runs[2], runs[3]] as RunResult[]), [runs[2], runs[3]] as RunResult[], []).join("\n");
    expect(withoutNative).not.toContain("× native floor");
  });
});

describe("the answer's knee bracket", () => {
  it("shows where each searched knee lies and the knee at the reference speed; a row at a fixed rate shows none", () => {
    const runs = [run("searched", 120_000, 7.5), run("bound", 160_000, 3), run("fixed", 20_000, 12)];
    const results = {
      ...resultsOf(runs),
      sweeps: [
        {
          product: "searched",
          knee: 120_000,
          bracket: { keptUp: 120_000, saturated: 130_000 },
          kneeAtReference: 132_360,
          confirmed: true,
          stoppedBecause: "…",
          steps: [],
        },
        { product: "bound", knee: 160_000, bracket: { keptUp: 160_000 }, confirmed: true, stoppedBecause: "…", steps: [] },
      ],
    };
    const text = answerSection(results, runs, []).join("\n");
    expect(text).toMatch(/\| rank \| product \| at rate\/s \| knee bracket\/s \| µs CPU/);
    expect(text).toMatch(/\| searched \| 120,000 \| 120,000–130,000 \(132,360 @ ref\) \|/);
    expect(text).toMatch(/\| bound \| 160,000 \| ≥ 160,000 \|/);
    expect(text).toMatch(/\| fixed \| 20,000 \| – \|/);
    expect(text).toContain("knee bracket: the knee (the highest rate that kept up and held on a repeat)");
    expect(answerSection(resultsOf(runs), runs, []).join("\n")).not.toContain("knee bracket");
  });

  it("says under the rounds' ranking that a knee is one search's, with no interval", () => {
    const rounds = [1, 2, 3].flatMap((round) => [run("a", 70_000, 7 + round / 10, { round, loadShare: 0.7 }), run("b", 35_000, 20, { round, loadShare: 0.7 })]);
    const sweeps = ["a", "b"].map((product) => ({ product, knee: 100_000, bracket: { keptUp: 100_000 }, confirmed: false, stoppedBecause: "…", steps: [] }));
    const text = answerSection({ ...resultsOf(rounds), sweeps }, rounds, []).join("\n");
    expect(text).toContain("every round runs the row at 0.7 × knee");
    expect(text).toContain("A knee is one search's, not repeated: unlike the ranked figure it has no interval");
  });
});

describe("the rows not in the ranking", () => {
  const saturated = (product: string) => run(
    product,
    70_000,
    18,
    { throughput: { ...run(product, 70_000, 18).throughput!, consumedPerSec: 60_000, regime: "saturated" } },
  );

  it("says a knee search found no knee, and why it stopped, rather than its last run's mark", () => {
    const runs = [run("ranked", 50_000, 10), saturated("capped")];
    const results = {
      ...resultsOf(runs),
      sweeps: [
        {
          product: "capped",
          method: "fast" as const,
          confirmed: false,
          stoppedBecause: "drain ceiling 83333/s; the search hit its cap of 10 runs.",
          steps: [],
        },
      ],
    };
    expect(answerSection(results, runs, []).join("\n")).toContain(
      "Not in the ranking: capped (no knee: drain ceiling 83333/s; the search hit its cap of 10 runs).",
    );
  });

  it("gives a row run at one rate its run's mark, cut at its first clause", () => {
    const runs = [run("ranked", 50_000, 10), saturated("fixed")];
    expect(answerSection(resultsOf(runs), runs, []).join("\n")).toContain("Not in the ranking: fixed (⚠ SATURATED).");
  });

  it("tells a row that failed from one that could not run here", () => {
    const runs = [run("ranked", 50_000, 10)];
    const hung = { ...run("hung", 0, 0), status: "failed", reason: "hung: consumed stayed at 100315 for 30s" } as RunResult;
    const absent = { ...run("absent", 0, 0), status: "skipped", reason: "no RisingWave server" } as RunResult;
    const text = answerSection(resultsOf(runs), runs, [hung, absent]).join("\n");
    expect(text).toContain("hung (failed: hung: consumed stayed at 100315 for 30s)");
    expect(text).toContain("absent (not run here: no RisingWave server)");
  });
});

describe("how far the ranking's figures repeat", () => {
  const paced = (rate: number, regime: "keep-up" | "saturated", micros: number) => ({
    rate,
    purpose: "paced" as const,
    offeredPerSec: rate,
    consumedPerSec: rate,
    regime,
    gendataShort: false,
    cpuMicrosPerInference: micros,
  });

  it("says how far the searches' steps run again at one rate moved µs, from the results' own searches", () => {
    const runs = [run("a", 50_000, 10), run("b", 20_000, 20)];
    const results = {
      ...resultsOf(runs),
      sweeps: [
        {
          product: "a",
          method: "fast" as const,
          knee: 50_000,
          confirmed: true,
          stoppedBecause: "…",
          steps: [paced(50_000, "keep-up", 10), paced(50_000, "keep-up", 11)],
        },
        {
          product: "b",
          method: "fast" as const,
          knee: 20_000,
          confirmed: true,
          stoppedBecause: "…",
          steps: [paced(20_000, "keep-up", 20), paced(22_000, "saturated", 25), paced(20_000, "keep-up", 20.4)],
        },
      ],
    };
    expect(answerSection(results, runs, []).join("\n")).toContain(
      "How far these figures repeat here: 2 times a knee search ran a step again at the same rate minutes later and both kept up, µs per inference moved by " +
        "6.0% in the median pair and 10.0% at the most (`bench repeats`); rows closer than that are not told apart on this machine.",
    );
  });

  it("says nothing of it when no step ran twice at one rate", () => {
    const runs = [run("fixed", 20_000, 12)];
    expect(answerSection(resultsOf(runs), runs, []).join("\n")).not.toContain("How far these figures repeat");
  });
});

describe("what the page says of the rounds' units", () => {
  it("says the rounds were taken to the median speed, or kept raw, with the spreads that decided it", () => {
    const corrected = driftNote({ corrected: true, spreadRaw: 0.12, spreadCorrected: 0.05 });
    expect(corrected).toContain("taken to the sitting's median speed index");
    expect(corrected).toContain("spread by 12.0% raw and 5.0% at the median speed");
    const raw = driftNote({ corrected: false, spreadRaw: 0.08, spreadCorrected: 0.15 });
    expect(raw).toMatch(/^Each round's µs is raw/);
    expect(raw).toContain("spread by 8.0% raw and 15.0% at the median speed");
    expect(driftNote({ corrected: true })).not.toContain("spread by");
  });
});
