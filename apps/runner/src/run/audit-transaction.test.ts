import { awaitStableEnd, describeOpenTransaction, oldestOpen, type Ends } from "./audit-transaction.ts";

/** A clock and a broker whose LSO moves as the script says, second by second (a unit test's double). */
function scripted(script: Ends[]): { ends: () => Promise<Ends>; now: () => number; sleep: (ms: number) => Promise<void> } {
  let t = 0;
  return {
    ends: async () => script[Math.min(Math.floor(t / 1000), script.length - 1)] as Ends,
    now: () => t,
    sleep: async (ms) => {
      t += ms;
    },
  };
}

describe("an exactly-once output read to its end", () => {
  it("reads to the high watermark at once when no transaction is open, and names none", async () => {
    const b = scripted([{ highWatermark: 500, lastStable: 500 }]);
    let asked = 0;
    const describe = async (): Promise<undefined> => void asked++;
    expect(await awaitStableEnd("out", { ...b, describe, boundMs: 80_000 })).toEqual({ readTo: 500 });
    expect(asked).toBe(0);
  });

  it("waits for an open transaction to end, then reads past it, and names what held it", async () => {
    const b = scripted([
      { highWatermark: 900, lastStable: 300 },
      { highWatermark: 1000, lastStable: 300 },
      { highWatermark: 1001, lastStable: 1001 },
    ]);
    const got = await awaitStableEnd("out", { ...b, describe: async () => ({ producerId: 7, firstOffset: 300 }), boundMs: 80_000 });
    expect(got).toEqual({ readTo: 1001, open: { producerId: 7, firstOffset: 300, recordsBehind: 600, ended: true, waitedSec: 2 } });
    expect(describeOpenTransaction(got.open!)).toBe(
      "the transaction of producer id 7 open from offset 300 held 600 records from a read-committed reader for 2 s, until it ended",
    );
  });

  it("stops at the bound with the transaction still open: reads to the LSO and names it as the cause", async () => {
    const b = scripted([{ highWatermark: 900, lastStable: 300 }]);
    const got = await awaitStableEnd("out", { ...b, describe: async () => ({ producerId: 7, firstOffset: 300 }), boundMs: 5_000 });
    expect(got.readTo).toBe(300);
    expect(got.open).toEqual({ producerId: 7, firstOffset: 300, recordsBehind: 600, ended: false, waitedSec: 5 });
    expect(describeOpenTransaction(got.open!)).toMatch(/producer id 7 open from offset 300 was still open after 5 s.*600 records behind it could not be read/);
  });

  it("still waits when the broker cannot say who holds the transaction, and says the producer is unknown", async () => {
    const b = scripted([{ highWatermark: 50, lastStable: 10 }, { highWatermark: 52, lastStable: 52 }]);
    const got = await awaitStableEnd("out", { ...b, describe: async () => Promise.reject(new Error("no java")), boundMs: 80_000 });
    expect(got).toEqual({ readTo: 52, open: { firstOffset: 10, recordsBehind: 40, ended: true, waitedSec: 1 } });
    expect(describeOpenTransaction(got.open!)).toMatch(/^the transaction of producer id unknown open from offset 10/);
  });
});

describe("kafka-transactions describe-producers, parsed", () => {
  it("gives the producer whose open transaction started first; producers with none open are skipped", () => {
    const table = [
      "ProducerId\tProducerEpoch\tLatestCoordinatorEpoch\tLastSequence\tLastTimestamp\tCurrentTransactionStartOffset",
      "1000\t0\t0\t9999\t1765000000000\t-1",
      "1001\t0\t0\t499\t1765000000001\t12000",
      "1002\t1\t0\t20\t1765000000002\t11000",
    ].join("\n");
    expect(oldestOpen(table)).toEqual({ producerId: 1002, firstOffset: 11000 });
  });
  it("gives none for a table without an open transaction or an answer it does not know", () => {
    expect(oldestOpen("ProducerId\tCurrentTransactionStartOffset\n1000\t-1\n")).toBeUndefined();
    expect(oldestOpen("Error: topic not found")).toBeUndefined();
  });
});
