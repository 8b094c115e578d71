import { gateMessages, PILL_KEY, pillOffsets } from "./gate-run.ts";
import { FIXTURE_COUNT, loadGateRecords } from "./gate-records.ts";
import { GENERATED_FIXTURE_COUNT } from "./fixtures.ts";
import { fixturesDir } from "./paths.ts";
import { POISON_KINDS, poisonSchedule } from "./poison.ts";

const all = loadGateRecords(fixturesDir());

describe("gateMessages", () => {
  it("produces the generated fixtures with the pills among them, then every spelling as its raw text with its key or none", () => {
    const pills = poisonSchedule({ seed: 7, rounds: 1, firstSeq: 1, span: GENERATED_FIXTURE_COUNT - 1 });
    const messages = gateMessages(all, pills);
    expect(messages).toHaveLength(FIXTURE_COUNT + POISON_KINDS.length);
    const spelled = messages.slice(GENERATED_FIXTURE_COUNT + POISON_KINDS.length);
    expect(spelled.map((m) => m.value)).toEqual(all.slice(GENERATED_FIXTURE_COUNT).map((f) => f.value));
    expect(spelled.find((m) => m.value === all.find((f) => f.name === "no-message-key")?.value)?.key).toBeNull();
    expect(messages.filter((m) => m.key === PILL_KEY)).toHaveLength(POISON_KINDS.length);
    expect(messages[0]).toEqual({ key: all[0]?.key, value: all[0]?.value });
  });

  it("without pills is the gate's records in their order, as written", () => {
    expect(gateMessages(all)).toEqual(all.map((f) => ({ key: f.key, value: f.value })));
  });
});

describe("pillOffsets", () => {
  it("is where each pill lands in the input: before the generated fixture it was placed before, shifted by the pills ahead of it", () => {
    const pills = poisonSchedule({ seed: 7, rounds: 2, firstSeq: 1, span: GENERATED_FIXTURE_COUNT - 1 });
    const offsets = pillOffsets(gateMessages(all, pills));
    expect(offsets).toEqual(pills.map((p, n) => p.beforeSeq + n));
  });
});
