import type { BenchResults, RunResult } from "../results/types.ts";
import { acrossMachinesSection, pairRows } from "./across-machines.ts";
import { SPEED_INDEX_VERSION } from "../run/speed-index.ts";
import { YARDSTICK_VERSION } from "../yardstick/runtimes.ts";

function run(product: string, rate: number, micros: number, speed?: number): RunResult {
  return {
    product, status: "ok", startedAt: "2026-12-01T00:00:00Z", settled: true,
    settings: { offeredRate: rate, warmupSec: 10, windowSec: 20, parallelism: 2, seed: 42 },
    throughput: {
      offeredPerSec: rate,
      consumedPerSec: rate,
      regime: "keep-up",
      lagDrift: 0,
      cpuAvg: (micros * rate) / 1e4,
      rowsPerCore: 1e6 / micros,
      rowsPerGb: 1,
      cpuMicrosPerInference: micros,
      outputPerSec: rate,
      extraRecordsPerRecord: 0,
    },
    ...(speed !== undefined
      ? {
        conditions: {
          speedIndexBefore: speed,
          speedIndexAfter: speed,
          speedIndexVersion: SPEED_INDEX_VERSION,
          foreignCpuAvg: 1,
          foreignCpuMax: 2,
          stealAvg: 0,
          noisy: false,
          noisyBecause: [],
        },
      }
      : {}),
  } as unknown as RunResult;
}

const results = (runs: RunResult[]): BenchResults => ({
  schema: 2,
  generatedAt: "2026-12-01T00:00:00Z",
  host: { cpu: "x", cores: 2, threads: 2, memoryMb: 1, kernel: "k", os: "o" },
  broker: { name: "k", version: "4", bootstrap: "b", startedByRunner: true },
  runs,
});

describe("across machines", () => {
  it("pairs each product at the highest rate both machines have counting runs at", () => {
    const here = results([run("node", 20_000, 10), run("node", 40_000, 9), run("quix", 10_000, 25)]);
    const there = results([run("node", 20_000, 16), run("quix", 10_000, 40), run("flink", 20_000, 30)]);
    const pairs = pairRows(here, there);
    expect(pairs.map((p) => [p.product, p.rate])).toEqual([["node", 20_000], ["quix", 10_000]]);
  });

  it("without today's index on both sides, judges each row against the median ratio of all rows", () => {
    const here = results([run("a", 20_000, 10), run("b", 20_000, 20), run("c", 20_000, 30)]);
    const there = results([run("a", 20_000, 16), run("b", 20_000, 33), run("c", 20_000, 120)]);
    const lines = acrossMachinesSection(here, [{ label: "second machine", results: there }]).join("\n");
    expect(lines).toContain("the median ratio, 1.65");
    expect(lines).toMatch(/\| a \| 20000 \| 10\.00 \(1\) \| 16\.00 \(1\) \| 1\.60 \| -3% \| ✓ \|/);
    expect(lines).toMatch(/\| c \| 20000 \| .* \| 4\.00 \| \+142% \| ✗ \|/);
  });

  it("with today's index on both sides, compares the rows at the reference speed", () => {
    const here = results([run("a", 20_000, 10, 700_000)]);
    const there = results([run("a", 20_000, 7, 1_000_000)]);
    const lines = acrossMachinesSection(here, [{ label: "other", results: there }]).join("\n");
    expect(lines).toMatch(/\| a \| 20000 \| 10\.00 \(1\) \| 7\.00 \(1\) \| \d+\.\d\d \/ \d+\.\d\d \| \+0% \| ✓ \|/);
  });

  it("says so when no product has a common rate", () => {
    expect(
      acrossMachinesSection(results([run("a", 5_000, 10)]), [{ label: "other", results: results([run("a", 20_000, 10)]) }]).join("\n"),
    ).toContain("No product has runs that count at a common rate");
    expect(acrossMachinesSection(results([]), [])).toEqual([]);
  });
});

describe("across machines, by runtime mix", () => {
  const withYardstick = (r: RunResult, cpython: number): RunResult => {
    const reading = { recordsPerCpuSecond: cpython, processes: [cpython], checksum: 1, runtime: "python 3.11.2", version: YARDSTICK_VERSION };
    return { ...r, yardstick: { before: { cpython: reading }, after: { cpython: reading }, mix: { shares: { cpython: 1 }, source: "declared" } } };
  };

  it("takes a CPython row to the reference speed by CPython's yardstick, so a machine whose interpreter alone is slower still carries", () => {
    // Same V8 speed on both machines; CPython 1.5× slower there, and so is the row.
    const here = results([withYardstick(run("faststream", 20_000, 20, 650_000), 360_000)]);
    const there = results([withYardstick(run("faststream", 20_000, 30, 650_000), 240_000)]);
    const lines = acrossMachinesSection(here, [{ label: "other", results: there }]).join("\n");
    expect(lines).toMatch(/\| faststream \| 20000 \| 20\.00 \(1\) \| 30\.00 \(1\) \| 20\.00 \/ 20\.00 \| \+0% \| ✓ \| CPython 100% \(declared\) \|/);
    expect(lines).toContain("Every row carries to the other within ±10%.");
  });

  it("names a row that does not carry with its measured residual and the runs behind it", () => {
    // Only V8 read there (older results): the row's 1.5× is left as its residual.
    const here = results([withYardstick(run("faststream", 20_000, 20, 650_000), 360_000)]);
    const there = results([{ ...run("faststream", 20_000, 30, 650_000), family: "faststream" }]);
    const lines = acrossMachinesSection(here, [{ label: "other", results: there }]).join("\n");
    expect(lines).toMatch(
      new RegExp(
        "\\| faststream \\| .* \\| \\+50% \\| ✗ \\| here: CPython 100% \\(declared\\), CPython read by V8's index \\(the other side has no " +
          "reading of it\\) · there: CPython 100% \\(declared\\), CPython read by V8's index \\(these results predate the runtime yardstick\\) \\|",
      ),
    );
    expect(lines).toContain(
      "Not carrying to the other, measured: faststream +50% (1 run here, 1 there, at 20000/s; why: its CPython share was read by V8's index, not by its own " +
        "yardstick; its runtime mix is the row's declared one here and on the other, not a profile of these runs).",
    );
    expect(lines).toContain(
      "Read by V8's index on both sides here, since only one side has their yardstick: CPython (the other's results have no reading of it).",
    );
  });

  it("says why a row does not carry: a speed index too wide for a ±10% judgement, else the row's own work", () => {
    // x and y declare no runtime mix, so neither a declared mix nor a runtime read by V8 is a reason here.
    const steady = results([run("x", 20_000, 10, 650_000), run("y", 20_000, 3, 650_000)]);
    const swinging = results([
      { ...run("x", 20_000, 14, 650_000), conditions: { ...run("x", 20_000, 14, 650_000).conditions!, speedIndexBefore: 500_000, speedIndexAfter: 800_000 } },
      run("y", 20_000, 3, 650_000),
    ]);
    const swung = acrossMachinesSection(steady, [{ label: "other", results: swinging }]).join("\n");
    expect(swung).toMatch(
      new RegExp(
        "x \\+\\d+% \\(1 run here, 1 there, at 20000\\/s; why: the speed index's readings spread \\d+% \\(coefficient of variation\\) on the " +
          "other, too wide for a ±10% judgement\\)",
      ),
    );
    const slower = acrossMachinesSection(
      steady,
      [{ label: "other", results: results([run("x", 20_000, 14, 650_000), run("y", 20_000, 3, 650_000)]) }],
    ).join("\n");
    expect(slower).toContain(
      "x +40% (1 run here, 1 there, at 20000/s; why: not the yardstick's inputs: its work scales between these two CPUs unlike every runtime read here)",
    );
  });
});
