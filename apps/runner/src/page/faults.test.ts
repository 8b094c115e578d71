import type { FaultResult } from "../results/types.ts";
import { renderFaults } from "./faults.ts";

const fault = (over: Partial<FaultResult>): FaultResult => ({
  product: "p",
  status: "ok",
  startedAt: "2026-12-01T00:00:00Z",
  settings: { offeredRate: 5000, warmupSec: 10, windowSec: 30, parallelism: 2, seed: 42, poisonRounds: 3 },
  delivery: "at-least-once",
  versions: {},
  pills: 21,
  survivedPills: true,
  pillsSkipped: 21,
  extraRecords: 0,
  kill: { atSec: 25, processes: 3 },
  restartSec: 4.2,
  firstOutputSec: 5.1,
  drainedSec: 9.3,
  undrained: 0,
  tally: { produced: 1000, distinct: 1000, lost: 0, duplicated: 40, poisonOut: 0, unreadable: 0, lostRanges: [] },
  ticks: [],
  ...over,
});

describe("the Faults section", () => {
  it("is absent without a faults run", () => {
    expect(renderFaults(undefined)).toEqual([]);
    expect(renderFaults([])).toEqual([]);
  });

  it("shows a row per product, a loss with its id ranges and its mechanism, and a product that died on the pills", () => {
    const page = renderFaults([
      fault({ product: "node" }),
      fault({
        product: "faststream",
        tally: { produced: 1000, distinct: 880, lost: 120, duplicated: 0, poisonOut: 0, unreadable: 0, lostRanges: [[500, 599], [700, 719]] },
        lossMechanism: "fire-and-forget publish",
      }),
      fault({
        product: "flink",
        status: "invalid",
        reason: "110481 records not consumed 90s after gendata stopped",
        undrained: 110_481,
        tally: { produced: 130_134, distinct: 0, lost: 130_134, duplicated: 0, poisonOut: 0, unreadable: 0, lostRanges: [[0, 130_133]] },
      }),
      fault(
        {
          product: "quix",
          status: "failed",
          reason: "exited (code 1) before the kill\nlog",
          survivedPills: false,
          pillsSkipped: undefined,
          tally: undefined,
          kill: undefined,
          restartSec: undefined,
          firstOutputSec: undefined,
          drainedSec: undefined,
        },
      ),
    ]).join("\n");
    expect(page).toContain("## Faults");
    expect(page).toContain("| node | at-least-once | 5,000 | yes | 21 of 21 | 0 | 0 | 40 | 4.2 s | 5.1 s | 9.3 s | ✓ |");
    expect(page).toContain("| **120** (e500–e599, e700–e719) |");
    expect(page).toContain("- **faststream** lost 120 records: fire-and-forget publish.");
    expect(page).not.toContain("flink** lost");
    expect(page).toContain("| 130,134 not out (110,481 never consumed: not drained) |");
    expect(page).toContain("| quix | at-least-once | 5,000 | **no** | – | 0 | – | – | – | – | – | failed: exited (code 1) before the kill |");
  });

  it("says beside lost what it leaves out: foreign records in the input, and a transaction still open past the audit's wait", () => {
    const base = fault({}).tally!;
    const page = renderFaults([
      fault({ product: "node", tally: { ...base, foreign: { count: 3, offsets: [1200, 1201, 1900], malformed: 2 } } }),
      fault({
        product: "quix",
        tally: {
          ...base,
          unreadBehindOpenTransaction: 40,
          openTransaction: { producerId: 7, firstOffset: 300, recordsBehind: 41, ended: false, waitedSec: 80 },
        },
      }),
    ]).join("\n");
    expect(page).toContain("| 0; 3 foreign records in the input (not the bench's; 2 malformed) at offsets 1200, 1201, 1900 |");
    expect(page).toContain("| 0; the transaction of producer id 7 open from offset 300 was still open after 80 s");
  });

  it("a passthrough row republishes its pills by design; a scoring row that republishes one is called out (seen: node-passthrough, 9 JSON and 12 not)", () => {
    const page = renderFaults([
      fault(
        {
          product: "node-passthrough",
          passthrough: true,
          pillsSkipped: 0,
          tally: { produced: 1000, distinct: 1000, lost: 0, duplicated: 0, poisonOut: 9, unreadable: 12, lostRanges: [] },
        },
      ),
      fault(
        { product: "node", pillsSkipped: 20, tally: { produced: 1000, distinct: 1000, lost: 0, duplicated: 0, poisonOut: 1, unreadable: 0, lostRanges: [] } },
      ),
    ]).join("\n");
    expect(page).toContain("| node-passthrough | at-least-once | 5,000 | yes | none of 21 (passthrough) |");
    expect(page).toContain(
      "- **node-passthrough** republished all 21 malformed records as they came (9 of them readable as JSON, 12 not): it decodes nothing by design, so it " +
        "has nothing to skip.",
    );
    expect(page).toContain("| node | at-least-once | 5,000 | yes | 20 of 21 |");
    expect(page).toContain("- **node** republished 1 malformed records (1 of them readable as JSON, 0 not) instead of skipping them.");
  });
});

describe("a page of a faults run alone", () => {
  it("has no sanity table or verdict: no row was measured for throughput", async () => {
    const { sanitySection } = await import("./tables.ts");
    expect(sanitySection([], 1e-5)).toEqual([]);
  });
});
