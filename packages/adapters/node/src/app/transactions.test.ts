import type { KafkaConsumer, LibrdKafkaError, Message, Producer, TopicPartitionOffset } from "@confluentinc/kafka-javascript";
import { batchStarts, positionsAfter, stepAfter, TransactionError, Transactions } from "./transactions.ts";

const message = (partition: number, offset: number): Message => ({ topic: "in", partition, offset, value: null, size: 0 });
const failure = (flags: Partial<LibrdKafkaError>): LibrdKafkaError => ({ message: "broken", code: -1, errno: -1, origin: "local", ...flags });

type Cb = (err: LibrdKafkaError | null) => void;

/**
 * A producer whose transactional calls answer from a script (one failure per call name, in turn,
 * then success) and record the order they were made in; a consumer that records its seeks.
 */
function fakes(script: Record<string, LibrdKafkaError[]>): { calls: string[]; seeks: TopicPartitionOffset[]; producer: Producer; consumer: KafkaConsumer } {
  const calls: string[] = [];
  const seeks: TopicPartitionOffset[] = [];
  const answer = (name: string, cb: Cb): void => {
    calls.push(name);
    setImmediate(() => cb(script[name]?.shift() ?? null));
  };
  const producer = {
    initTransactions: (_t: number, cb: Cb) => answer("init", cb),
    beginTransaction: (cb: Cb) => answer("begin", cb),
    sendOffsetsToTransaction: (offsets: TopicPartitionOffset[], _c: unknown, _t: number, cb: Cb) => answer(`offsets ${JSON.stringify(offsets)}`, cb),
    commitTransaction: (_t: number, cb: Cb) => answer("commit", cb),
    abortTransaction: (_t: number, cb: Cb) => answer("abort", cb),
  } as unknown as Producer;
  const consumer = { seek: (tp: TopicPartitionOffset, _t: number, cb: (err?: LibrdKafkaError) => void) => (seeks.push(tp), setImmediate(cb)) };
  return { calls, seeks, producer, consumer: consumer as unknown as KafkaConsumer };
}

const batch = [message(0, 5), message(0, 6), message(0, 7)];
const offsets = `offsets ${JSON.stringify([{ topic: "in", partition: 0, offset: 8 }])}`;
const quiet = console.error;
// The loop says on stderr what it retries and aborts; the tests need not.
const silenced = (): void => void (console.error = (): void => undefined);

describe("the exactly-once loop's transactions", () => {
  afterEach(() => void (console.error = quiet));

  it("follows librdkafka's error flags: fatal over abort over retry, anything else fatal", () => {
    expect(stepAfter({ isFatal: true, isTxnRequiresAbort: true, isRetriable: true })).toBe("fatal");
    expect(stepAfter({ isTxnRequiresAbort: true, isRetriable: true })).toBe("abort");
    expect(stepAfter({ isRetriable: true })).toBe("retry");
    expect(stepAfter({})).toBe("fatal");
  });

  it("commits the positions after a batch and rewinds to its first offsets, per partition", () => {
    const mixed = [message(1, 40), message(0, 9), message(1, 41), message(0, 10)];
    expect(positionsAfter(mixed)).toEqual([
      { topic: "in", partition: 1, offset: 42 },
      { topic: "in", partition: 0, offset: 11 },
    ]);
    expect(batchStarts(mixed)).toEqual([
      { topic: "in", partition: 1, offset: 40 },
      { topic: "in", partition: 0, offset: 9 },
    ]);
  });

  it("runs a batch as begin, produce, the offsets, commit", async () => {
    const f = fakes({});
    const txn = new Transactions(f.producer, f.consumer, () => false);
    await expect(txn.run(batch, () => f.calls.push("produce"))).resolves.toBe(true);
    expect(f.calls).toEqual(["begin", "produce", offsets, "commit"]);
    expect(f.seeks).toEqual([]);
  });

  it("retries a retriable commit", async () => {
    silenced();
    const f = fakes({ commit: [failure({ isRetriable: true })] });
    await expect(new Transactions(f.producer, f.consumer, () => false).run(batch, () => undefined)).resolves.toBe(true);
    expect(f.calls).toEqual(["begin", offsets, "commit", "commit"]);
  });

  it("aborts an abortable transaction and rewinds the consumer to the batch's start", async () => {
    silenced();
    const f = fakes({ commit: [failure({ isTxnRequiresAbort: true })] });
    await expect(new Transactions(f.producer, f.consumer, () => false).run(batch, () => undefined)).resolves.toBe(false);
    expect(f.calls).toEqual(["begin", offsets, "commit", "abort"]);
    expect(f.seeks).toEqual([{ topic: "in", partition: 0, offset: 5 }]);
  });

  it("aborts when a produce throws a client error, and when a retriable failure meets a stop", async () => {
    silenced();
    const thrown = fakes({});
    const produce = (): void => {
      throw Object.assign(new Error("Local: Erroneous state"), { code: -172 });
    };
    await expect(new Transactions(thrown.producer, thrown.consumer, () => false).run(batch, produce)).resolves.toBe(false);
    expect(thrown.calls).toEqual(["begin", "abort"]);
    const stopping = fakes({ commit: [failure({ isRetriable: true })] });
    await expect(new Transactions(stopping.producer, stopping.consumer, () => true).run(batch, () => undefined)).resolves.toBe(false);
    expect(stopping.calls).toEqual(["begin", offsets, "commit", "abort"]);
  });

  it("throws on a fatal failure, without aborting", async () => {
    const f = fakes({ [offsets]: [failure({ isFatal: true, message: "fenced" })] });
    const run = new Transactions(f.producer, f.consumer, () => false).run(batch, () => undefined);
    await expect(run).rejects.toThrow(TransactionError);
    await expect(run).rejects.toMatchObject({ step: "fatal" });
    expect(f.calls).toEqual(["begin", offsets]);
  });

  it("gives up when the abort itself fails", async () => {
    silenced();
    const f = fakes({ commit: [failure({ isTxnRequiresAbort: true })], abort: [failure({ isTxnRequiresAbort: true })] });
    await expect(new Transactions(f.producer, f.consumer, () => false).run(batch, () => undefined)).rejects.toMatchObject({ step: "fatal" });
  });

  it("gives up, as stuck, on a call librdkafka never answers", async () => {
    const f = fakes({});
    const silent = { ...f.producer, commitTransaction: (): void => undefined } as unknown as Producer;
    const run = new Transactions(silent, f.consumer, () => false, 50).run(batch, () => undefined);
    await expect(run).rejects.toMatchObject({ step: "fatal", stuck: true });
  });

  it("retries initTransactions while it is retriable", async () => {
    silenced();
    const f = fakes({ init: [failure({ isRetriable: true }), failure({ isRetriable: true })] });
    await new Transactions(f.producer, f.consumer, () => false).init();
    expect(f.calls).toEqual(["init", "init", "init"]);
  });
});
