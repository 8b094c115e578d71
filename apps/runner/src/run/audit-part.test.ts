import { TransactionRuns } from "./audit-part.ts";

describe("TransactionRuns", () => {
  it("ends each record's latency at the last append of its transaction: the records between two offset gaps", () => {
    const seen: Array<[number | undefined, number]> = [];
    const runs = new TransactionRuns((ts, visibleAt) => seen.push([ts, visibleAt]));
    // Transaction one: offsets 0-2, appended at 110, 150, 190; its marker takes offset 3.
    runs.add(0, 100, 110);
    runs.add(1, 101, 150);
    runs.add(2, 102, 190);
    // Transaction two: offsets 4-5 (an unreadable output still belongs to its transaction).
    runs.add(4, 200, 1200);
    runs.add(5, undefined, 1250);
    runs.end();
    expect(seen).toEqual([[100, 190], [101, 190], [102, 190], [200, 1250], [undefined, 1250]]);
  });

  it("records nothing before a transaction is complete, and nothing twice", () => {
    const seen: number[] = [];
    const runs = new TransactionRuns((ts) => seen.push(ts as number));
    runs.add(10, 1, 5);
    expect(seen).toEqual([]);
    runs.end();
    runs.end();
    expect(seen).toEqual([1]);
  });
});
