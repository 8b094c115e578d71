import { FIXTURE_COUNT, RecordEncoder } from "@bench/core";
import { combinedFinal, ForeignTally, isOwnInput, ownInputCount } from "./audit-foreign.ts";
import { foreignReason } from "./judge.ts";

const encoder = new RecordEncoder(42);
const own = (seq: number): Buffer => Buffer.from(encoder.encode(seq, 1).value);

describe("the bench's own input records apart from foreign ones", () => {
  it("counts as own the fixtures and every record gendata sent, pills included, once its final report says all were acknowledged", () => {
    expect(ownInputCount({ final: true, sent: 1000, delivered: 1003, poisonSent: 3 })).toBe(FIXTURE_COUNT + 1003);
    expect(ownInputCount({ final: true, sent: 1000, delivered: 900 })).toBeUndefined();
    expect(ownInputCount({ sent: 1000, delivered: 1000 })).toBeUndefined();
    expect(ownInputCount(undefined)).toBeUndefined();
  });

  it("sums the feeds of a session or scenario, and says nothing when one gave no final report or was never stopped", () => {
    const step = { final: true, sent: 1000, delivered: 1000 };
    const burst = { final: true, sent: 3000, delivered: 3000, poisonSent: 0 };
    expect(ownInputCount(combinedFinal([step, burst]))).toBe(FIXTURE_COUNT + 4000);
    expect(ownInputCount(combinedFinal([step, { sent: 3000, delivered: 3000 }]))).toBeUndefined();
    expect(ownInputCount(combinedFinal([step, burst], 1))).toBeUndefined();
    expect(ownInputCount(combinedFinal([step, { final: true, sent: 3000, delivered: 2999 }]))).toBeUndefined();
    // No feed at all (a session whose gate failed): the fixtures alone are the bench's.
    expect(ownInputCount(combinedFinal([]))).toBe(FIXTURE_COUNT);
  });

  it("tells a good record of the bench's and one of its pills from a foreign one", () => {
    const pills = new Set([Buffer.from("{\"event_id\":\"p1\",").toString("latin1")]);
    expect(isOwnInput(own(5), 10, pills)).toBe(true);
    expect(isOwnInput(Buffer.from("{\"event_id\":\"p1\","), 10, pills)).toBe(true);
    // A seq the bench never produced, an id of another shape, text that is no record.
    expect(isOwnInput(own(10), 10, pills)).toBe(false);
    expect(isOwnInput(Buffer.from("{\"event_id\":\"order-7\",\"amount\":3}"), 10, pills)).toBe(false);
    expect(isOwnInput(Buffer.from("hello"), 10, pills)).toBe(false);
  });

  it("reports how many foreign records, how many malformed, and their first offsets", () => {
    const tally = new ForeignTally(100, new Set());
    tally.add(0, own(0));
    tally.add(1, Buffer.from("{\"event_id\":\"x\"}"));
    tally.add(2, own(1));
    tally.add(3, Buffer.from("[1,2"));
    tally.add(4, Buffer.from(""));
    const found = tally.result();
    expect(found).toEqual({ count: 3, offsets: [1, 3, 4], malformed: 2 });
    expect(foreignReason(found)).toBe("3 foreign records in the input (not the bench's; 2 malformed) at offsets 1, 3, 4");
  });

  it("keeps the first 20 offsets and says there are more", () => {
    const tally = new ForeignTally(0, new Set());
    for (let i = 0; i < 25; i++) tally.add(100 + i, Buffer.from("x"));
    const found = tally.result();
    expect(found.count).toBe(25);
    expect(found.offsets).toHaveLength(20);
    expect(foreignReason(found)).toMatch(/at offsets 100, 101, .*119, …$/);
  });
});
