import type { RunResult } from "../results/types.ts";
import { countingRun as run, resultsOf } from "./__fixtures__/counting-run.ts";
import { answerSection, rankRows } from "./answer.ts";

const native = { floorFor: "native" };

describe("the answer's cost as a multiple of the native floor", () => {
  const runs = [run("rust", 40_000, 2.5, native), run("rust", 10_000, 4, native), run("plain", 40_000, 10, { floorFor: "python" }), run("framework", 10_000, 20), run("jvm", 80_000, 7)];
  const results = resultsOf(runs);

  it("divides each row's median by the native row's at the same rate, and says nothing beyond the native row's rates", () => {
    const ranked = rankRows(results, [runs[0], runs[2], runs[3], runs[4]] as RunResult[]);
    expect(ranked.map((r) => [r.run.product, r.timesNative])).toEqual([
      ["rust", 1],
      ["jvm", undefined],
      ["plain", 4],
      ["framework", 5],
    ]);
  });

  it("marks a multiple whose native figure is interpolated between the native row's rates", () => {
    const between = [run("rust", 10_000, 4, native), run("rust", 40_000, 2, native), run("framework", 20_000, 30)];
    const [, row] = rankRows(resultsOf(between), [between[1], between[2]] as RunResult[]);
    expect(row?.run.product).toBe("framework");
    // native CPU per second: 40,000 µs at 10k/s, 80,000 at 40k/s; at 20k/s 53,333 µs, 2.67 µs per record
    expect(row?.timesNative).toBeCloseTo(30 / ((40_000 + 40_000 / 3) / 20_000), 12);
    expect(row?.nativeInterpolated).toBe(true);
    expect(answerSection(resultsOf(between), [between[1], between[2]] as RunResult[], []).join("\n")).toMatch(/\| framework \| 20,000 \| 30\.00 \(30\.00\) \| [^|]+ \| ≈11\.25× \|/);
  });

  it("adds the column and its note only when the page has a native floor", () => {
    const text = answerSection(results, [runs[0], runs[2], runs[3], runs[4]] as RunResult[], []).join("\n");
    expect(text).toMatch(/\| rank \| product \| at rate\/s \| µs CPU \/ inference \(median, range\) \| µs @ ref \| × native floor \|/);
    expect(text).toMatch(/\| 3 \| plain \| 40,000 \| 10\.00 \(10\.00\) \| [^|]+ \| 4\.00× \|/);
    expect(text).toMatch(/\| 2 \| jvm \| 80,000 \| 7\.00 \(7\.00\) \| [^|]+ \| – \|/);
    expect(text).toContain("× native floor: the row's median µs per inference over the native row's median at the same rate");

    const withoutNative = answerSection(resultsOf([runs[2], runs[3]] as RunResult[]), [runs[2], runs[3]] as RunResult[], []).join("\n");
    expect(withoutNative).not.toContain("× native floor");
  });
});
