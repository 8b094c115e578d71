import { KAFKA_SETTINGS } from "@bench/core";
import type { RunResult, ScenarioRow, SweepRecord } from "../results/types.ts";
import { countingRun, resultsOf } from "./__fixtures__/counting-run.ts";
import { consumerSettingsLine, kneeBracket, notesSection, notRunSection, sanitySection, sweepSections, windowSeconds } from "./tables.ts";

const sweep: SweepRecord = {
  product: "confluent-kafka",
  knee: 120_000,
  bracket: { keptUp: 120_000, saturated: 130_000 },
  kneeAtReference: 132_360,
  confirmed: true,
  stoppedBecause: "the product saturated at 130000/s and kept up at 120000/s.",
  steps: [
    { rate: 120_000, purpose: "refine", offeredPerSec: 120_000, consumedPerSec: 120_000, regime: "keep-up", gendataShort: false, speedIndex: 589_278 },
    {
      rate: 120_000,
      purpose: "confirm",
      offeredPerSec: 120_000,
      consumedPerSec: 103_750,
      regime: "saturated",
      gendataShort: false,
      slower: "speed index 511,458 against 589,278 usual here (−13%)",
    },
    {
      rate: 120_000,
      purpose: "confirm",
      offeredPerSec: 120_000,
      consumedPerSec: 104_500,
      regime: "saturated",
      gendataShort: false,
      slower: "speed index 505,000 against 589,278 usual here (−14%)",
      keptUpAtSpeed: true,
    },
  ],
};

describe("a knee search's section", () => {
  it("gives the knee's bracket and the knee at the reference speed", () => {
    expect(kneeBracket(sweep)).toBe(", bracket 120,000–130,000/s, 132,360/s at the reference speed");
    expect(kneeBracket({ ...sweep, bracket: { keptUp: 160_000 }, kneeAtReference: undefined })).toBe(", bracket ≥ 160,000/s (nothing above it saturated)");
    expect(sweepSections([sweep]).join("\n")).toContain("Knee 120,000/s (confirmed), bracket 120,000–130,000/s, 132,360/s at the reference speed;");
  });

  it("names an older sweep by its climb and a sweep that starts from a drain by its drain ceiling", () => {
    expect(sweepSections([sweep]).join("\n")).toContain("## Sweep — ");
    const drained = { ...sweep, steps: [{ ...sweep.steps[0]!, purpose: "drain" as const, rate: 0 }, ...sweep.steps] };
    const text = sweepSections([drained]).join("\n");
    expect(text).toContain("## Sweep (drain, then paced runs, confirmed) — ");
    expect(text).toContain("drain ceiling");
  });

  it("says of each step on a slower machine that it was run again, or kept up judged at the usual speed", () => {
    const text = sweepSections([sweep]).join("\n");
    expect(text).toContain("saturated (machine slower: speed index 511,458 against 589,278 usual here (−13%); run again)");
    expect(text).toContain("saturated (machine slower: speed index 505,000 against 589,278 usual here (−14%); kept up judged at the usual speed)");
  });
});

describe("the sanity table's verified column", () => {
  it("counts the fixtures, and the row's declared JSON findings beside them (named in its notes)", () => {
    const verification = { passed: true, checked: 315, fixtures: 315, maxError: 0 };
    const rows = [
      countingRun("plain", 1000, 10, { verification }),
      countingRun("flink", 1000, 10, { verification: { ...verification, declared: ["y_object_duplicated_key"] } }),
    ];
    const text = sanitySection(rows, 1e-5).join("\n");
    expect(text).toMatch(/\| plain \| [^\n]*\| 315\/315 \|/);
    expect(text).toMatch(/\| flink \| [^\n]*\| 315\/315 \(1 JSON finding, see notes\) \|/);
  });
});

describe("a row's notes", () => {
  it("say when the product's cold start was worked off before the window, and at what rate", () => {
    const warm = countingRun("kafka-streams", 79_400, 13, { warmUp: { rate: 63_500, seconds: 30 }, settleSec: 6 });
    const text = notesSection(resultsOf([warm]), [warm]).join("\n");
    expect(text).toContain(
      "Run at 79,400/s offered, its cold start worked off first (30 s at 63,500/s, not measured), window once settled again (settled at 6.0 s)",
    );
    const cold = countingRun("node", 78_000, 12, { settleSec: 11 });
    expect(notesSection(resultsOf([cold]), [cold]).join("\n")).toContain("Run at 78,000/s offered, window after ≥");
  });

  it("give the seconds the window measured, which a window rule ends by its figure, not the setting's", () => {
    const phases = [...Array(5).fill("settle"), ...Array(10).fill("window"), "drain"] as const;
    const ticks = phases.map((phase, i) => ({ t: i + 1, phase })) as unknown as RunResult["ticks"];
    const ruled = countingRun("node", 78_000, 12, { settleSec: 5, ticks });
    expect(ruled.settings.windowSec).toBe(20);
    expect(windowSeconds(ruled)).toBe(10);
    expect(notesSection(resultsOf([ruled]), [ruled]).join("\n")).toContain("(settled at 5.0 s), 10 s window, parallelism 2.");
    expect(windowSeconds(countingRun("node", 78_000, 12))).toBe(20);
  });
});

describe("the consumer settings line", () => {
  const scenario = (kafka?: ScenarioRow["kafka"]): ScenarioRow => ({ product: "node", delivery: "at-least-once", versions: {}, ...(kafka ? { kafka } : {}) });

  it("reads a file of fault scenarios alone from the settings they recorded", () => {
    const line = consumerSettingsLine([], [scenario({ ...KAFKA_SETTINGS, consumer: { ...KAFKA_SETTINGS.consumer, "fetch.wait.max.ms": 77 } })]);
    expect(line).toContain("fetch.wait.max.ms=77");
    expect(line).not.toMatch(/predate|today/);
  });

  it("says the settings are today's code's when the scenarios predate recording theirs", () => {
    expect(consumerSettingsLine([], [scenario()])).toContain("the settings of the bench's code today: these fault scenarios predate recording theirs");
  });
});

describe("the rows that did not run", () => {
  const skipped = { ...countingRun("absent", 0, 0), status: "skipped", reason: "no RisingWave server" } as RunResult;
  const failed = { ...countingRun("hung", 0, 0), status: "failed", reason: "hung: consumed stayed at 100315 for 30s" } as RunResult;

  it("are not run on this machine when each was skipped", () => {
    expect(notRunSection([skipped])).toEqual(["## Not run on this machine", "", "- **absent** — no RisingWave server", ""]);
  });

  it("name a failure as one, under a heading that says some failed", () => {
    const text = notRunSection([skipped, failed]);
    expect(text[0]).toBe("## Not run, or failed, on this machine");
    expect(text).toContain("- **hung** — FAILED: hung: consumed stayed at 100315 for 30s");
  });
});
