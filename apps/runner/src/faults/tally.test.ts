import { OutputTally } from "./tally.ts";

const out = (seq: number): string => JSON.stringify({ event_id: `e${seq}`, ts_ms: 1, risk: 0.5 });
const range = (from: number, to: number): number[] => Array.from({ length: to - from }, (_, i) => from + i);

describe("OutputTally across a kill and restart", () => {
  it("counts the replay after a restart as duplicates, nothing lost (at-least-once held)", () => {
    const tally = new OutputTally(2000);
    // Before the kill: 0..1199 out, committed up to 1000; the restart replays 1000..1199, then on.
    for (const seq of [...range(0, 1200), ...range(1000, 2000)]) tally.add(out(seq));
    expect(tally.result()).toEqual({ produced: 2000, distinct: 2000, lost: 0, duplicated: 200, poisonOut: 0, unreadable: 0, lostRanges: [] });
  });

  it("counts exactly the ids whose offsets were committed before their outputs were delivered", () => {
    const tally = new OutputTally(2000);
    // Committed up to 1300 but only 0..1199 delivered when killed: 1200..1299 are never replayed.
    for (const seq of [...range(0, 1200), ...range(1300, 2000)]) tally.add(out(seq));
    // ...and one stray gap elsewhere, plus a replayed record.
    tally.add(out(1500));
    expect(tally.result()).toEqual({ produced: 2000, distinct: 1900, lost: 100, duplicated: 1, poisonOut: 0, unreadable: 0, lostRanges: [[1200, 1299]] });
  });

  it("tells pills scored and unreadable outputs apart from good records", () => {
    const tally = new OutputTally(3);
    tally.add(out(0));
    tally.add(out(2));
    tally.add(JSON.stringify({ event_id: "p4", risk: 1 }));
    tally.add("not json");
    tally.add(out(7)); // an id gendata never made
    tally.add(Buffer.from(out(0)));
    expect(tally.result()).toEqual({ produced: 3, distinct: 2, lost: 1, duplicated: 1, poisonOut: 1, unreadable: 2, lostRanges: [[1, 1]] });
  });

  it("counts whatever else a product might write as unreadable, never throwing: null, an array, an id of the wrong type, bytes that are not UTF-8, " +
    "nothing", () => {
    const tally = new OutputTally(300);
    for (const value of ["null", "[1]", '{"event_id":7,"risk":1}', '{"risk":1}', '{"event_id":"e1","risk":', "", Buffer.from([0x7b, 0xff, 0x7d])]) {
      expect(() => tally.add(value)).not.toThrow();
    }
    // A spelling fixture's labelled id counts for its sequence number.
    tally.add(JSON.stringify({ event_id: "e263/ü-日本-🚀", risk: 0.1 }));
    expect(tally.result()).toMatchObject({ distinct: 1, unreadable: 7, poisonOut: 0 });
  });
});
