import { GateCheck } from "./gate-check.ts";
import { gateRecordsScored, loadGateRecords, type GateRecord } from "./gate-records.ts";
import { ReferenceModel } from "./model.ts";
import { fixturesDir, modelsDir } from "./paths.ts";

/** The heavier model committed beside the seed's (models/risk_mlp_wide.card.json). */
const HEAVY = "risk_mlp_wide";

const scoredBy = (model: ReferenceModel): Promise<GateRecord[]> =>
  gateRecordsScored(fixturesDir(), (rows) => model.score(Float32Array.from(rows.flat())));

/** The gate's verdict on a row whose outputs carry `scores`' risks, held to `expected`. */
function verdict(expected: readonly GateRecord[], scores: readonly GateRecord[], tolerance: number): string | undefined {
  const check = new GateCheck(expected, false);
  expected.forEach((f, offset) =>
    check.add(offset, Buffer.from(JSON.stringify({ event_id: f.eventId, ts_ms: f.tsMs, risk: (scores[offset] as GateRecord).risk }))),
  );
  return check.verdict(tolerance, 180_000);
}

describe("the gate's records under the run's model", () => {
  it("are the committed records under the seed's model, and hold a row to the model its run uses", async () => {
    const tiny = await ReferenceModel.load(modelsDir(), "risk_mlp");
    const heavy = await ReferenceModel.load(modelsDir(), HEAVY);
    const committed = loadGateRecords(fixturesDir());
    const underTiny = await scoredBy(tiny);
    const underHeavy = await scoredBy(heavy);
    expect(underTiny.map((r) => r.eventId)).toEqual(committed.map((r) => r.eventId));
    underTiny.forEach((r, i) => expect(Math.abs(r.risk - (committed[i] as GateRecord).risk)).toBeLessThanOrEqual(tiny.card.tolerance));
    expect(verdict(underHeavy, underHeavy, heavy.card.tolerance)).toBeUndefined();
    // A row that scored with the seed's model in a run of the heavier one fails the gate, and the other way round.
    expect(verdict(underHeavy, underTiny, heavy.card.tolerance)).toMatch(/^largest risk error .* exceeds the card's tolerance/);
    expect(verdict(underTiny, underHeavy, tiny.card.tolerance)).toMatch(/^largest risk error .* exceeds the card's tolerance/);
  });
});
