import { loadFixtures } from "../fixtures.ts";
import { fixturesDir } from "../paths.ts";
import type { OutputRecord } from "../schema.ts";
import { alive, compareWithFixtures } from "./fixture-run.ts";

const fixtures = loadFixtures(fixturesDir()).slice(0, 3);
const exact = (): Map<string, OutputRecord> =>
  new Map(fixtures.map((f) => [f.record.event_id, { event_id: f.record.event_id, ts_ms: f.record.ts_ms, risk: f.risk }]));

describe("compareWithFixtures", () => {
  it("finds nothing wrong with the reference itself", () => {
    expect(compareWithFixtures(fixtures, exact())).toEqual({ maxRiskError: 0, missing: [], tsMismatches: [] });
  });

  it("names missing ids and wrong timestamps, and keeps the largest risk error", () => {
    const [a, b, c] = fixtures.map((f) => f.record.event_id) as [string, string, string];
    const outputs = exact();
    outputs.delete(a);
    outputs.set(b, { ...(outputs.get(b) as OutputRecord), ts_ms: 7, risk: (fixtures[1]?.risk ?? 0) + 0.25 });
    outputs.set(c, { ...(outputs.get(c) as OutputRecord), risk: (fixtures[2]?.risk ?? 0) - 0.5 });
    const result = compareWithFixtures(fixtures, outputs);
    expect(result.missing).toEqual([a]);
    expect(result.tsMismatches).toEqual([{ eventId: b, expected: fixtures[1]?.record.ts_ms, actual: 7 }]);
    expect(result.maxRiskError).toBeCloseTo(0.5, 12);
  });

  it("reports a risk that is not a number as an infinite error, which no tolerance passes", () => {
    const outputs = exact();
    const id = fixtures[0]?.record.event_id as string;
    outputs.set(id, { event_id: id, ts_ms: fixtures[0]?.record.ts_ms as number, risk: Number.NaN });
    expect(compareWithFixtures(fixtures, outputs).maxRiskError).toBe(Number.POSITIVE_INFINITY);
    outputs.set(id, { event_id: id, ts_ms: fixtures[0]?.record.ts_ms as number } as OutputRecord);
    expect(compareWithFixtures(fixtures, outputs).maxRiskError).toBe(Number.POSITIVE_INFINITY);
  });
});

describe("alive", () => {
  it("is true for this process and false for a pid that does not exist", () => {
    expect(alive(process.pid)).toBe(true);
    expect(alive(2 ** 22 + 1)).toBe(false);
  });
});
