import type { DeliveryCheck } from "../results/types.ts";
import { BAD_OUTPUT_SAMPLES, OutputAccount } from "./audit-account.ts";
import { splitOffsets } from "./audit.ts";
import { WindowLatency } from "./audit-part.ts";
import { invalidReasons } from "./judge.ts";

const good = (seq: number, risk: unknown = 0.5): string => JSON.stringify({ event_id: `e${seq}`, ts_ms: 1_767_225_600_000 + seq, risk });
/** Outputs in topic order: offset = index. */
const feed = (account: OutputAccount, values: ReadonlyArray<string | Buffer>): Array<ReturnType<OutputAccount["add"]>> =>
  values.map((v, offset) => account.add({ offset, value: Buffer.isBuffer(v) ? v : Buffer.from(v) }));

/** What node wrote for an event id with an escaped quote before issue 20: not JSON. */
const unescaped = '{"event_id":"e3/say "hi"","ts_ms":1767225600003,"risk":0.27}';

describe("the audit's accounting of what a product wrote", () => {
  it("counts good, duplicated and lost records by sequence, labelled spelling ids included", () => {
    const account = new OutputAccount({ produced: 5, passthrough: false, stride: 1 });
    const out = feed(account, [good(0), good(1), good(1), JSON.stringify({ event_id: "e3/ü-日本-🚀", ts_ms: 7, risk: 0.1 }), good(4)]);
    expect(out.map((o) => o?.seq)).toEqual([0, 1, 1, 3, 4]);
    expect(out[3]?.tsMs).toBe(7);
    expect(account.result()).toMatchObject(
      { distinct: 4, duplicated: 1, badOutputs: 0, badOutputSamples: [], sampleSeqs: [0, 1, 1, 3, 4], sampleRisks: [0.5, 0.5, 0.5, 0.1, 0.5] },
    );
  });

  it("counts every output it cannot use, with offset, why and first bytes, never throwing, and they deliver nothing", () => {
    const account = new OutputAccount({ produced: 10, passthrough: false, stride: 1 });
    const values = [
      good(0),
      unescaped,
      '{"ts_ms":1,"risk":0.5}',
      good(2, null),
      JSON.stringify({ event_id: "e2", ts_ms: 1 }),
      good(99),
      Buffer.from([0x7b, 0x22, 0xfc, 0x22, 0x7d]),
      "[1,2]",
      "",
      good(5, "0.5"),
    ];
    expect(() => feed(account, values)).not.toThrow();
    const result = account.result();
    expect(result).toMatchObject({ distinct: 1, duplicated: 0, badOutputs: 9, sampleSeqs: [0] });
    expect(result.badOutputSamples).toHaveLength(BAD_OUTPUT_SAMPLES);
    expect(result.badOutputSamples.map((b) => [b.offset, b.why])).toEqual([
      [1, "not JSON"],
      [2, "no event_id"],
      [3, "risk null is not a number"],
      [4, "risk missing is not a number"],
      [5, 'event_id "e99" was never produced'],
    ]);
    // The first bytes as one quoted line, so the reader sees what the product wrote.
    expect(JSON.parse(result.badOutputSamples[0]?.head ?? "null")).toBe(unescaped);
  });

  it("reads each remaining kind of bad output for what it is", () => {
    const account = new OutputAccount({ produced: 10, passthrough: false, stride: 1 });
    feed(account, [Buffer.from([0x7b, 0x22, 0xfc, 0x22, 0x7d]), "[1,2]", "", "x".repeat(500)]);
    const samples = account.result().badOutputSamples;
    expect(samples.map((b) => b.why)).toEqual(["not UTF-8", "not a JSON object", "not JSON", "not JSON"]);
    expect(samples[3]?.head).toBe(JSON.stringify(`${"x".repeat(120)}…`));
  });

  it("asks a passthrough row for an id only: its outputs are the records themselves", () => {
    const account = new OutputAccount({ produced: 3, passthrough: true, stride: 1 });
    feed(account, [JSON.stringify({ event_id: "e0", latency_ms: 1 }), JSON.stringify({ event_id: "e1" }), "not json"]);
    expect(account.result()).toMatchObject({ distinct: 2, badOutputs: 1, sampleSeqs: [] });
  });

  it("counts a declared misread spelling case's output as delivered but does not re-score it (the gate held it to its finding)", () => {
    const account = new OutputAccount({ produced: 3, passthrough: false, stride: 1, unscored: new Set([1]) });
    feed(account, [good(0), good(1), good(2)]);
    expect(account.result()).toMatchObject({ distinct: 3, sampleSeqs: [0, 2] });
  });

  it("makes the run invalid with a reason that names the first offsets and what the first holds", () => {
    const account = new OutputAccount({ produced: 4, passthrough: false, stride: 1 });
    feed(account, [good(0), unescaped, good(2), good(9)]);
    const a = account.result();
    const delivery: DeliveryCheck = {
      produced: 4, distinctOutputs: a.distinct, lost: 4 - a.distinct, duplicated: a.duplicated, scoresChecked: a.sampleSeqs.length,
      misScored: 0, maxScoreError: 0, badOutputs: a.badOutputs, badOutputSamples: a.badOutputSamples,
    };
    const reasons = invalidReasons({ verification: { passed: true, checked: 268, maxError: 0 }, delivery, undrained: 0, drainTimeoutSec: 60 });
    expect(reasons).toEqual([
      `2 bad outputs at offsets 1, 3 (offset 1: not JSON, ${JSON.stringify(unescaped)})`,
      "lost 2 of 4 records",
    ]);
    expect(reasons.join("; ")).not.toContain("\n");
  });
});

describe("a held prefix (a drain run stopped mid-backlog)", () => {
  it("holds only the records below it to done, and still counts every output past it", () => {
    const account = new OutputAccount({ produced: 10, passthrough: false, stride: 1 });
    // 0..5 committed; 6 and 7 done past the commit (7 twice); 8, 9 never reached
    feed(account, [good(0), good(1), good(2), good(3), good(4), good(5), good(6), good(7), good(7)]);
    expect(account.result(6)).toMatchObject({ distinct: 6, duplicated: 1, badOutputs: 0 });
    // Without the prefix, 8 and 9 would be missing.
    expect(account.result()).toMatchObject({ distinct: 8 });
  });

  it("still finds a record lost inside the prefix", () => {
    const account = new OutputAccount({ produced: 10, passthrough: false, stride: 1 });
    feed(account, [good(0), good(2), good(3), good(6)]);
    expect(account.result(4).distinct).toBe(3);
  });
});

describe("an audit split between readers", () => {
  const values = [good(0), good(1), unescaped, good(1), good(2, null), good(3), "[1]", good(3), good(4), "", good(9), good(5)];
  const account = (): OutputAccount => new OutputAccount({ produced: 8, passthrough: false, stride: 2 });

  it("adds up to what one reader finds, samples and first bad outputs in offset order", () => {
    const one = account();
    feed(one, values);
    for (const cut of [1, 4, 7, 11]) {
      const [head, tail] = [account(), account()];
      values.forEach((v, offset) => (offset < cut ? head : tail).add({ offset, value: Buffer.from(v) }));
      const merged = account();
      merged.absorb(head.tallies());
      merged.absorb(tail.tallies());
      expect(merged.result()).toEqual(one.result());
      expect(merged.result(3)).toEqual(one.result(3));
    }
  });

  it("keeps a count at 255 when the parts' counts add past it", () => {
    const [a, b] = [account(), account()];
    for (let i = 0; i < 200; i++) a.add({ offset: 1, value: Buffer.from(good(0)) });
    for (let i = 0; i < 100; i++) b.add({ offset: 1, value: Buffer.from(good(0)) });
    const merged = account();
    merged.absorb(a.tallies());
    merged.absorb(b.tallies());
    expect(merged.result()).toMatchObject({ distinct: 1, duplicated: 254 });
  });

  it("splits the offsets into ranges that cover the topic once", () => {
    expect(splitOffsets(10, 3)).toEqual([[0, 3], [3, 6], [6, 10]]);
    expect(splitOffsets(2, 4)).toEqual([[0, 1], [1, 2]]);
    expect(splitOffsets(0, 2)).toEqual([[0, 0]]);
  });

  it("adds the parts' latency histograms to the figures of one histogram", () => {
    const [whole, a, b] = [new WindowLatency(), new WindowLatency(), new WindowLatency()];
    for (let ms = 1; ms <= 1000; ms++) {
      whole.record(ms);
      (ms % 3 === 0 ? a : b).record(ms);
    }
    const merged = new WindowLatency();
    merged.absorb(a.encode());
    merged.absorb(b.encode());
    merged.absorb(new WindowLatency().encode());
    expect(merged.done()).toEqual(whole.done());
  });
});
